package io.pinion.hbase;

import java.time.Duration;
import java.util.Map;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * Client settings for every HBase cluster of the topology. Short timeouts by default: the feed path would rather
 * fail over to the standby than wait.
 */
@ConfigMapping(prefix = "pinion.hbase")
public interface HBaseConfig {

    /** Deadline of one client operation, retries included ({@code hbase.client.operation.timeout}). */
    @WithDefault("5s")
    Duration operationTimeout();

    /** Deadline of one RPC ({@code hbase.rpc.timeout}). */
    @WithDefault("2s")
    Duration rpcTimeout();

    /** Retries of a failed RPC ({@code hbase.client.retries.number}). */
    @WithDefault("3")
    int retries();

    /** Base pause between retries ({@code hbase.client.pause}). */
    @WithDefault("50ms")
    Duration pause();

    /**
     * Any other client setting, passed through unchanged, e.g. {@code
     * pinion.hbase.settings."hbase.client.ipc.pool.size"=2}.
     */
    Map<String, String> settings();
}
