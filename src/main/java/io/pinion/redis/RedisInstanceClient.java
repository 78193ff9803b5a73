package io.pinion.redis;

import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.vertx.mutiny.redis.client.Redis;

/**
 * The client of one Redis instance: the typed data source the stores use, and the low-level client for
 * commands the typed API does not cover.
 *
 * @param name       instance name from the topology, e.g. {@code redis-1}
 * @param endpoint   {@code host:port}
 * @param dataSource typed command groups (Quarkus reactive Redis API)
 * @param redis      the underlying Vert.x client
 */
public record RedisInstanceClient(String name, String endpoint, ReactiveRedisDataSource dataSource, Redis redis) {
}
