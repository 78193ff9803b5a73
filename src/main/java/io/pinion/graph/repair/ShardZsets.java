package io.pinion.graph.repair;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.redis.RedisClients;
import io.pinion.redis.RedisInstanceClient;
import io.pinion.topology.RedisInstance;
import io.pinion.topology.ShardRange;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Response;

/**
 * Reads one sorted set per virtual shard of an instance (the pending sets, the journals): one read per shard,
 * pipelined in batches of {@link #BATCH} commands, one batch after the other, each within a timeout.
 */
@ApplicationScoped
public class ShardZsets {

    /** Commands per pipelined batch, well under the client's limit of waiting replies per connection. */
    static final int BATCH = 512;

    private final RedisClients clients;

    ShardZsets(RedisClients clients) {
        this.clients = clients;
    }

    /** The members every shard's read answered, in shard order; fails when a batch fails or times out. */
    public Uni<List<String>> members(RedisInstance instance, IntFunction<Request> read, Duration timeout) {
        List<Request> reads = new ArrayList<>();
        for (ShardRange range : instance.virtualShards()) {
            for (int vs = range.from(); vs <= range.to(); vs++) {
                reads.add(read.apply(vs));
            }
        }
        RedisInstanceClient client = clients.forInstance(instance.name());
        List<List<Request>> chunks = new ArrayList<>();
        for (int i = 0; i < reads.size(); i += BATCH) {
            chunks.add(reads.subList(i, Math.min(i + BATCH, reads.size())));
        }
        return Multi.createFrom().iterable(chunks)
                .onItem().transformToUniAndConcatenate(chunk -> client.redis().batch(chunk)
                        .ifNoItem().after(timeout).fail())
                .collect().in(ArrayList<String>::new, (names, answers) -> {
                    for (Response answer : answers) {
                        if (answer != null) {
                            answer.forEach(member -> names.add(member.toString()));
                        }
                    }
                })
                .map(names -> (List<String>) names);
    }
}
