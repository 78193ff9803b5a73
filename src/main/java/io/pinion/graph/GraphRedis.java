package io.pinion.graph;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.breaker.Breaker;
import io.pinion.breaker.BreakerEvidence;
import io.pinion.breaker.Breakers;
import io.pinion.failure.Failure;
import io.pinion.failure.Refused;
import io.pinion.failure.Unavailable;
import io.pinion.redis.RedisClients;
import io.pinion.redis.RedisErrors;
import io.pinion.redis.RedisInstanceClient;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Response;

/**
 * Round trips to the instance serving a virtual shard, bounded by {@code pinion.graph.command-timeout}. An instance
 * that does not answer, refuses the connection or is still loading its data is a 503 for this request only.
 */
@ApplicationScoped
public class GraphRedis {

    private final RedisClients clients;
    private final VirtualShards shards;
    private final GraphConfig config;
    private final Breakers breakers;

    GraphRedis(RedisClients clients, VirtualShards shards, GraphConfig config, Breakers breakers) {
        this.clients = clients;
        this.shards = shards;
        this.config = config;
        this.breakers = breakers;
    }

    public Uni<Response> send(int vs, Request request) {
        RedisInstanceClient client = clients.forVirtualShard(vs);
        return bounded(client, client.redis().send(request));
    }

    /** Commands pipelined on one connection of the shard's instance: one round trip. */
    public Uni<List<Response>> batch(int vs, List<Request> requests) {
        RedisInstanceClient client = clients.forVirtualShard(vs);
        return bounded(client, client.redis().batch(requests));
    }

    /** The name of the Redis instance that serves a virtual shard (to group work by instance). */
    public String instanceOf(int vs) {
        return clients.forVirtualShard(vs).name();
    }

    /**
     * Each request to its virtual shard's instance, pipelined per instance (one round trip each, in parallel); the
     * answers in the order given. An instance that fails leaves its answers null, so one instance down costs its
     * requests only.
     */
    public Uni<List<Response>> batchAcross(List<Integer> virtualShards, List<Request> requests) {
        if (requests.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        Map<String, List<Integer>> byInstance = new LinkedHashMap<>();
        for (int i = 0; i < requests.size(); i++) {
            byInstance
                    .computeIfAbsent(
                            clients.forVirtualShard(virtualShards.get(i)).name(), name -> new ArrayList<>())
                    .add(i);
        }
        Response[] answers = new Response[requests.size()];
        List<Uni<Void>> calls = new ArrayList<>(byInstance.size());
        for (List<Integer> indexes : byInstance.values()) {
            List<Request> group = indexes.stream().map(requests::get).toList();
            calls.add(batch(virtualShards.get(indexes.get(0)), group)
                    .invoke(found -> {
                        for (int k = 0; k < indexes.size(); k++) {
                            answers[indexes.get(k)] = found.get(k);
                        }
                    })
                    .replaceWithVoid()
                    .onFailure().recoverWithNull());
        }
        return Uni.join().all(calls).andCollectFailures().map(done -> Arrays.asList(answers));
    }

    /** Runs a script on the shard's instance; {@code write} scripts are refused while the shard is being moved. */
    public Uni<Response> script(int vs, GraphScript script, List<String> keys, List<String> args, boolean write) {
        if (write && shards.frozen(vs)) {
            return Uni.createFrom()
                    .failure(new Refused(
                            "virtual_shard_moving",
                            "virtual shard " + vs + " is being moved to another Redis instance; retry shortly"));
        }
        RedisInstanceClient client = clients.forVirtualShard(vs);
        Uni<Response> run = Uni.createFrom().deferred(() -> client.redis().send(evalsha(script, keys, args)))
                .onFailure(GraphRedis::noScript).recoverWithUni(missing -> client.redis()
                        .send(Request.cmd(Command.SCRIPT).arg("LOAD").arg(script.source()))
                        .chain(loaded -> client.redis().send(evalsha(script, keys, args))));
        return bounded(client, run);
    }

    /**
     * A write script that first journals the relationship on the shard ({@link GraphKeys#journal}): the journal entry,
     * the trim of entries older than {@code pinion.graph.journal-window}, and the script go out pipelined, in that
     * order, so a replica that got the write also got its journal entry.
     */
    public Uni<Response> journaledScript(int vs, GraphScript script, List<String> keys, List<String> args,
            String relationship) {
        if (shards.frozen(vs)) {
            return Uni.createFrom()
                    .failure(new Refused(
                            "virtual_shard_moving",
                            "virtual shard " + vs + " is being moved to another Redis instance; retry shortly"));
        }
        RedisInstanceClient client = clients.forVirtualShard(vs);
        long nowMicros = System.currentTimeMillis() * 1000;
        long horizon = nowMicros - config.journalWindow().toMillis() * 1000;
        String journal = GraphKeys.journal(vs);
        List<Request> batch = List.of(
                Request.cmd(Command.ZADD).arg(journal).arg(nowMicros).arg(relationship),
                Request.cmd(Command.ZREMRANGEBYSCORE).arg(journal).arg("-inf").arg("(" + horizon),
                evalsha(script, keys, args));
        Uni<Response> run = Uni.createFrom().deferred(() -> client.redis().batch(batch))
                .onFailure(GraphRedis::noScriptInBatch).recoverWithUni(missing -> client.redis()
                        .send(Request.cmd(Command.SCRIPT).arg("LOAD").arg(script.source()))
                        .chain(loaded -> client.redis().batch(batch)))
                .map(answers -> answers.get(2));
        return bounded(client, run);
    }

    private static Request evalsha(GraphScript script, List<String> keys, List<String> args) {
        Request request = Request.cmd(Command.EVALSHA).arg(script.sha()).arg(keys.size());
        keys.forEach(request::arg);
        args.forEach(request::arg);
        return request;
    }

    /**
     * Bounds the call by the command timeout and puts it behind the instance's breaker: once the instance was seen
     * down, requests that need it fail at once with a 503 until a trial call finds it back.
     */
    private <T> Uni<T> bounded(RedisInstanceClient client, Uni<T> call) {
        String role = "redis instance of the follower graph";
        return breakers.forBackend(client.name())
                .call(
                        () -> call.ifNoItem()
                                .after(config.commandTimeout())
                                .failWith(() -> new Unavailable(
                                        role,
                                        new java.util.concurrent.TimeoutException("no answer within "
                                                + config.commandTimeout().toMillis() + " ms")))
                                .onFailure(failure -> !(failure instanceof Failure) && unavailable(failure))
                                .transform(failure -> new Unavailable(role, failure)),
                        failure -> failure instanceof Unavailable ? BreakerEvidence.of(failure) : Breaker.Evidence.NONE,
                        () -> new Unavailable(role, null));
    }

    private static boolean noScript(Throwable failure) {
        return RedisErrors.is(failure, "NOSCRIPT");
    }

    /** A batch fails as a whole with its failed command's error inside the message ({@code ERR [2] NOSCRIPT …}). */
    private static boolean noScriptInBatch(Throwable failure) {
        return RedisErrors.kind(failure).filter("NOSCRIPT"::equals).isPresent();
    }

    /** Every failure but an error reply to a well-formed command means the instance is not usable right now. */
    private static boolean unavailable(Throwable failure) {
        return RedisErrors.kind(failure).map(kind -> switch (kind) {
            case "LOADING", "BUSY", "MASTERDOWN", "READONLY", "CONNECTION_CLOSED" -> true;
            // a batch reports a broken connection as the exception's text (ERR [0] java.net.SocketException: …)
            default -> !kind.matches("[A-Z_]+");
        }).orElse(true);
    }
}
