package io.pinion.topology;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * Checks a topology before it is used: every shard and virtual shard is served exactly once, names are unique,
 * endpoints parse, and every HBase role names a known cluster. Reports all problems at once.
 */
public final class TopologyValidator {

    /** Shard numbers are 16 bits in a Pinion id. */
    public static final int MAX_SHARDS = 1 << 16;

    private TopologyValidator() {
    }

    public static void validate(Topology topology) {
        List<String> problems = new ArrayList<>();
        if (topology.mysql() == null || topology.redis() == null || topology.hbase() == null) {
            throw new InvalidTopologyException(List.of("the topology needs 'mysql', 'redis' and 'hbase' sections"));
        }
        checkMysql(topology.mysql(), problems);
        checkRedis(topology.redis(), problems);
        checkHBase(topology.hbase(), problems);
        if (!problems.isEmpty()) {
            throw new InvalidTopologyException(problems);
        }
    }

    private static void checkMysql(MysqlTopology mysql, List<String> problems) {
        int count = mysql.shardCount();
        if (count < 1 || count > MAX_SHARDS) {
            problems.add("mysql.shardCount must be within 1.." + MAX_SHARDS + ", was " + count);
            return;
        }
        if (mysql.openShards() == null || mysql.openShards().to() >= count) {
            problems.add("mysql.openShards must be a range inside [0, " + (count - 1) + "]");
        }
        checkNames(mysql.hosts(), MysqlHost::name, "mysql host", problems);
        for (MysqlHost host : mysql.hosts()) {
            checkEndpoint(host.master(), "mysql host " + host.name() + " master", problems);
            if (host.replica() != null) {
                checkEndpoint(host.replica(), "mysql host " + host.name() + " replica", problems);
            }
        }
        checkCoverage(count, mysql.hosts(), MysqlHost::name, MysqlHost::shards, "shard", problems);
    }

    private static void checkRedis(RedisTopology redis, List<String> problems) {
        int count = redis.virtualShards();
        if (count < 1 || count > MAX_SHARDS) {
            problems.add("redis.virtualShards must be within 1.." + MAX_SHARDS + ", was " + count);
            return;
        }
        checkNames(redis.instances(), RedisInstance::name, "redis instance", problems);
        for (RedisInstance instance : redis.instances()) {
            checkEndpoint(instance.endpoint(), "redis instance " + instance.name(), problems);
            if (instance.replica() != null) {
                checkEndpoint(instance.replica(), "redis instance " + instance.name() + " replica", problems);
            }
        }
        for (String sentinel : redis.sentinels()) {
            checkEndpoint(sentinel, "redis sentinel", problems);
        }
        checkCoverage(count, redis.instances(), RedisInstance::name, RedisInstance::virtualShards,
                "virtual shard", problems);
        for (ShardRange range : redis.frozen()) {
            if (range.to() >= count) {
                problems.add("redis.frozen range " + range + " is outside 0.." + (count - 1));
            }
        }
    }

    private static void checkHBase(HBaseTopology hbase, List<String> problems) {
        checkNames(hbase.clusters(), HBaseClusterSpec::name, "hbase cluster", problems);
        for (HBaseClusterSpec cluster : hbase.clusters()) {
            if (cluster.bootstrap() == null || cluster.bootstrap().isBlank()) {
                problems.add("hbase cluster " + cluster.name() + " needs 'bootstrap' (master host:port list)");
                continue;
            }
            for (String server : cluster.bootstrap().split(",")) {
                checkEndpoint(server.trim(), "hbase cluster " + cluster.name() + " bootstrap", problems);
            }
        }
        for (HBaseRole role : HBaseRole.values()) {
            String name = hbase.roles().get(role);
            if (name == null) {
                problems.add("hbase.roles has no cluster for " + role);
            } else if (hbase.cluster(name).isEmpty()) {
                problems.add("hbase.roles " + role + " names unknown cluster '" + name + "'");
            }
        }
    }

    private static <T> void checkNames(List<T> items, Function<T, String> name, String what, List<String> problems) {
        if (items.isEmpty()) {
            problems.add("at least one " + what + " is required");
        }
        Set<String> seen = new HashSet<>();
        for (T item : items) {
            String n = name.apply(item);
            if (n == null || !n.matches("[a-z0-9][a-z0-9-]{0,62}")) {
                problems.add(what + " name '" + n + "' must be 1-63 of [a-z0-9-]");
            } else if (!seen.add(n)) {
                problems.add(what + " name '" + n + "' is used twice");
            }
        }
    }

    private static void checkEndpoint(String endpoint, String what, List<String> problems) {
        try {
            HostPort.parse(endpoint);
        } catch (IllegalArgumentException e) {
            problems.add(what + ": " + e.getMessage());
        }
    }

    private static <T> void checkCoverage(int count, List<T> owners, Function<T, String> name,
            Function<T, List<ShardRange>> ranges, String what, List<String> problems) {
        String[] ownerOf = new String[count];
        for (T owner : owners) {
            for (ShardRange range : ranges.apply(owner)) {
                if (range.to() >= count) {
                    problems.add(name.apply(owner) + " lists " + what + "s " + range + " beyond " + (count - 1));
                    continue;
                }
                for (int shard = range.from(); shard <= range.to(); shard++) {
                    if (ownerOf[shard] != null) {
                        problems.add(
                                what + " " + shard + " is on both " + ownerOf[shard] + " and " + name.apply(owner));
                        return;
                    }
                    ownerOf[shard] = name.apply(owner);
                }
            }
        }
        for (int shard = 0; shard < count; shard++) {
            if (ownerOf[shard] == null) {
                problems.add(what + " " + shard + " is not served by any host");
                return;
            }
        }
    }
}
