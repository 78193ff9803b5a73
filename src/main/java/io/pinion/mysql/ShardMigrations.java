package io.pinion.mysql;

import java.util.List;

/**
 * Every shard-database migration, oldest first. Append new versions at the end; never edit an applied one.
 */
public final class ShardMigrations {

    /** The schema every shard database is brought to. */
    public static final List<ShardMigration> ALL = List.of(
            new ShardMigration(1, "baseline: shard database and schema_version", List.of()));

    private ShardMigrations() {
    }

    public static int latestVersion() {
        return ALL.get(ALL.size() - 1).version();
    }
}
