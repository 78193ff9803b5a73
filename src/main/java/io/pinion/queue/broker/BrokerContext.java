package io.pinion.queue.broker;

import io.pinion.mysql.ShardSql;
import io.pinion.queue.QueueMetrics;
import io.pinion.queue.QueueRegistry;
import io.pinion.queue.QueueSettings;
import io.pinion.zookeeper.BrokerSeats;
import io.vertx.mutiny.core.Vertx;

/**
 * What a broker needs from the application: SQL, the queue registry, its seat in ZooKeeper, settings, metrics, timers.
 */
public record BrokerContext(
        Vertx vertx,
        ShardSql sql,
        QueueRegistry registry,
        BrokerSeats seats,
        QueueSettings settings,
        QueueMetrics metrics) {}
