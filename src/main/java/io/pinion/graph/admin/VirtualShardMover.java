package io.pinion.graph.admin;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.failure.Conflict;
import io.pinion.failure.InvalidInput;
import io.pinion.graph.GraphKeys;
import io.pinion.redis.RedisClients;
import io.pinion.redis.RedisInstanceClient;
import io.pinion.topology.ActiveTopology;
import io.pinion.topology.RedisTopology;
import io.pinion.topology.ShardRange;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Response;

/**
 * The two data steps of moving a range of virtual shards to another Redis instance (docs/graph.md): copy every key
 * of the range from the instance serving it to the target (DUMP / RESTORE, one SCAN pass over the source), and,
 * after the topology points the range at the target, purge the old copies. Copying requires the range to be frozen
 * in the topology in force, so no write lands on the source while it is copied.
 */
@ApplicationScoped
public class VirtualShardMover {

    private static final int SCAN_COUNT = 1000;
    private static final int CHUNK = 500;
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(30);

    private final ActiveTopology topology;
    private final RedisClients clients;

    VirtualShardMover(ActiveTopology topology, RedisClients clients) {
        this.topology = topology;
        this.clients = clients;
    }

    /** Copies the range's keys to {@code target}; the range must be frozen and served by one other instance. */
    public Uni<MoveReport> copy(ShardRange range, String target) {
        RedisTopology redis = topology.get().redis();
        check(range, redis);
        if (redis.frozen().stream().noneMatch(frozen -> frozen.from() <= range.from() && frozen.to() >= range.to())) {
            throw new Conflict("range_not_frozen",
                    "freeze " + range + " in the topology (redis.frozen) and reload it everywhere before copying");
        }
        String source = sourceOf(range, redis);
        if (source.equals(target)) {
            throw new Conflict("same_instance", range + " is already served by " + target);
        }
        RedisInstanceClient from = clients.forInstance(source);
        RedisInstanceClient to = clients.forInstance(instanceNamed(target, redis));
        AtomicLong copied = new AtomicLong();
        return keysOf(from, range)
                .onItem().transformToUniAndConcatenate(keys -> copyChunk(from, to, keys).invoke(copied::addAndGet))
                .collect().last()
                .map(ignored -> new MoveReport(range.from(), range.to(), source, target, copied.get()));
    }

    /** Deletes the range's keys from an instance that no longer serves any of it. */
    public Uni<MoveReport> purge(ShardRange range, String instance) {
        RedisTopology redis = topology.get().redis();
        check(range, redis);
        instanceNamed(instance, redis);
        for (int vs = range.from(); vs <= range.to(); vs++) {
            if (redis.instanceOf(vs).map(served -> served.name().equals(instance)).orElse(false)) {
                throw new Conflict("still_served", instance + " still serves virtual shard " + vs + "; move it first");
            }
        }
        RedisInstanceClient client = clients.forInstance(instance);
        AtomicLong deleted = new AtomicLong();
        return keysOf(client, range)
                .onItem().transformToUniAndConcatenate(keys -> {
                    Request unlink = Request.cmd(Command.UNLINK);
                    keys.forEach(unlink::arg);
                    return client.redis().send(unlink).ifNoItem().after(CALL_TIMEOUT).fail()
                            .invoke(answer -> deleted.addAndGet(answer.toLong()));
                })
                .collect().last()
                .map(ignored -> new MoveReport(range.from(), range.to(), instance, null, deleted.get()));
    }

    /** The keys of the range on one instance, in chunks, from one SCAN pass over its whole keyspace. */
    private Multi<List<String>> keysOf(RedisInstanceClient client, ShardRange range) {
        return Multi.createBy()
                .repeating()
                .uni(
                        () -> new String[] {"0"},
                        cursor -> client.redis()
                                .send(Request.cmd(Command.SCAN)
                                        .arg(cursor[0])
                                        .arg("MATCH")
                                        .arg(GraphKeys.ALL)
                                        .arg("COUNT")
                                        .arg(SCAN_COUNT))
                                .ifNoItem()
                                .after(CALL_TIMEOUT)
                                .fail()
                                .map(answer -> {
                                    cursor[0] = answer.get(0).toString();
                                    return new ScanPage(inRange(answer.get(1), range), cursor[0].equals("0"));
                                }))
                .whilst(page -> !page.last())
                .filter(page -> !page.keys().isEmpty())
                .onItem()
                .transformToMultiAndConcatenate(page -> Multi.createFrom().iterable(chunks(page.keys())));
    }

    /** One SCAN answer: the keys of the range in it, and whether the scan is complete. */
    private record ScanPage(List<String> keys, boolean last) {
    }

    private static Uni<Long> copyChunk(RedisInstanceClient from, RedisInstanceClient to, List<String> keys) {
        List<Request> reads = new ArrayList<>();
        keys.forEach(key -> {
            reads.add(Request.cmd(Command.DUMP).arg(key));
            reads.add(Request.cmd(Command.PTTL).arg(key));
        });
        return from.redis().batch(reads).ifNoItem().after(CALL_TIMEOUT).fail().chain(dumps -> {
            List<Request> writes = new ArrayList<>();
            for (int i = 0; i < keys.size(); i++) {
                Response dump = dumps.get(2 * i);
                if (dump == null) {
                    continue; // deleted since the scan
                }
                long ttl = Math.max(0, dumps.get(2 * i + 1).toLong());
                writes.add(Request.cmd(Command.RESTORE).arg(keys.get(i)).arg(ttl).arg(dump.toBuffer()).arg("REPLACE"));
            }
            if (writes.isEmpty()) {
                return Uni.createFrom().item(0L);
            }
            return to.redis().batch(writes).ifNoItem().after(CALL_TIMEOUT).fail().map(done -> (long) writes.size());
        });
    }

    private static List<String> inRange(Response keys, ShardRange range) {
        List<String> found = new ArrayList<>();
        for (Response key : keys) {
            int shard = GraphKeys.shardOf(key.toString());
            if (shard >= 0 && range.contains(shard)) {
                found.add(key.toString());
            }
        }
        return found;
    }

    private static List<List<String>> chunks(List<String> keys) {
        List<List<String>> chunks = new ArrayList<>();
        for (int i = 0; i < keys.size(); i += CHUNK) {
            chunks.add(keys.subList(i, Math.min(i + CHUNK, keys.size())));
        }
        return chunks;
    }

    private static void check(ShardRange range, RedisTopology redis) {
        if (range.to() >= redis.virtualShards()) {
            throw new InvalidInput("invalid_range", "virtual shards run from 0 to " + (redis.virtualShards() - 1));
        }
    }

    private static String sourceOf(ShardRange range, RedisTopology redis) {
        String source = null;
        for (int vs = range.from(); vs <= range.to(); vs++) {
            String name = redis.instanceOf(vs).orElseThrow().name();
            if (source != null && !source.equals(name)) {
                throw new InvalidInput(
                        "range_spans_instances",
                        range + " is served by more than one instance; move one part at a time");
            }
            source = name;
        }
        return source;
    }

    private static String instanceNamed(String name, RedisTopology redis) {
        return redis.instances().stream().map(instance -> instance.name()).filter(name::equals).findFirst()
                .orElseThrow(() -> new InvalidInput("unknown_instance", "no Redis instance named " + name));
    }
}
