package io.pinion.redis;

import io.vertx.mutiny.redis.client.Redis;

/**
 * The client of one Redis instance.
 *
 * @param name     instance name from the topology, e.g. {@code redis-1}
 * @param endpoint {@code host:port}
 * @param redis    the Vert.x client (pooled connections; a Sentinel client when the topology names sentinels)
 */
public record RedisInstanceClient(String name, String endpoint, Redis redis) {
}
