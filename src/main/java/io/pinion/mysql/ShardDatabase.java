package io.pinion.mysql;

import io.pinion.topology.TopologyValidator;

/**
 * Names of the logical shard databases. The only place a database name is built, always from a validated integer.
 */
public final class ShardDatabase {

    private static final java.util.regex.Pattern TABLE_NAME = java.util.regex.Pattern.compile("[a-z_][a-z0-9_]{0,63}");

    /** The shard whose database also holds the service-wide control tables (queue configuration, brokers). */
    public static final int CONTROL_SHARD = 0;

    private ShardDatabase() {
    }

    /** {@code db00000} … {@code db65535}. */
    public static String name(int shard) {
        if (shard < 0 || shard >= TopologyValidator.MAX_SHARDS) {
            throw new IllegalArgumentException(
                    "shard " + shard + " is outside 0.." + (TopologyValidator.MAX_SHARDS - 1));
        }
        String digits = Integer.toString(shard);
        return "db" + "00000".substring(digits.length()) + digits;
    }

    /** A table of a shard database, quoted for SQL: {@code `db00042`.`pins`}. */
    public static String table(int shard, String table) {
        if (!TABLE_NAME.matcher(table).matches()) {
            throw new IllegalArgumentException("bad table name " + table);
        }
        return "`" + name(shard) + "`.`" + table + "`";
    }
}
