package io.pinion.mysql;

import java.util.List;

/**
 * Every shard-database migration, oldest first. Append new versions at the end; never edit an applied one.
 */
public final class ShardMigrations {

    /** The schema every shard database is brought to. */
    public static final List<ShardMigration> ALL = List.of(
            new ShardMigration(1, "baseline: shard database and schema_version", List.of()),
            new ShardMigration(2, "objects, mappings, counters and the username lookup", List.of(
                    objectTable("users"),
                    objectTable("boards"),
                    objectTable("pins"),
                    mappingTable("user_has_boards"),
                    mappingTable("board_has_pins"),
                    mappingTable("user_has_pins"),
                    mappingTable("user_likes_pins"),
                    mappingTable("pin_liked_by_users"),
                    mappingTable("pin_saved_to_pins"),
                    """
                    CREATE TABLE IF NOT EXISTS ${db}.counters (
                      object_id BIGINT NOT NULL,
                      name VARCHAR(32) NOT NULL,
                      value BIGINT NOT NULL,
                      PRIMARY KEY (object_id, name)
                    ) ENGINE=InnoDB""",
                    """
                    CREATE TABLE IF NOT EXISTS ${db}.usernames (
                      username VARCHAR(30) NOT NULL PRIMARY KEY,
                      user_id BIGINT NOT NULL,
                      created_at TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3)
                    ) ENGINE=InnoDB""")),
            new ShardMigration(3, "job queue: job id sequence and blocks; queue, partition and broker control tables", List.of(
                    """
                    CREATE TABLE IF NOT EXISTS ${db}.job_sequence (
                      id TINYINT NOT NULL PRIMARY KEY,
                      next_local BIGINT NOT NULL
                    ) ENGINE=InnoDB""",
                    "INSERT IGNORE INTO ${db}.job_sequence (id, next_local) VALUES (0, 1)",
                    """
                    CREATE TABLE IF NOT EXISTS ${db}.job_blocks (
                      first_local BIGINT NOT NULL PRIMARY KEY,
                      last_local BIGINT NOT NULL,
                      queue_id BIGINT NOT NULL,
                      partition_no INT NOT NULL,
                      created_at BIGINT NOT NULL
                    ) ENGINE=InnoDB""",
                    ShardMigration.CONTROL_ONLY + """
                    CREATE TABLE IF NOT EXISTS ${db}.queues (
                      queue_id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
                      name VARCHAR(64) NOT NULL,
                      config JSON NOT NULL,
                      version BIGINT NOT NULL,
                      created_at BIGINT NOT NULL,
                      updated_at BIGINT NOT NULL,
                      UNIQUE KEY by_name (name)
                    ) ENGINE=InnoDB""",
                    ShardMigration.CONTROL_ONLY + """
                    CREATE TABLE IF NOT EXISTS ${db}.queue_partitions (
                      queue_id BIGINT NOT NULL,
                      partition_no INT NOT NULL,
                      shard INT NOT NULL,
                      owner VARCHAR(64) NULL,
                      lease_expires BIGINT NOT NULL DEFAULT 0,
                      epoch BIGINT NOT NULL DEFAULT 0,
                      PRIMARY KEY (queue_id, partition_no),
                      KEY by_owner (owner)
                    ) ENGINE=InnoDB""",
                    ShardMigration.CONTROL_ONLY + """
                    CREATE TABLE IF NOT EXISTS ${db}.queue_brokers (
                      broker_id VARCHAR(64) NOT NULL PRIMARY KEY,
                      address VARCHAR(200) NOT NULL,
                      started_at BIGINT NOT NULL,
                      heartbeat_at BIGINT NOT NULL,
                      expires_at BIGINT NOT NULL
                    ) ENGINE=InnoDB""")),
            new ShardMigration(4, "job queue: partition ownership moves to ZooKeeper; broker rows and partition leases go", List.of(
                    ShardMigration.CONTROL_ONLY + "DROP TABLE IF EXISTS ${db}.queue_brokers",
                    ShardMigration.CONTROL_ONLY + """
                    ALTER TABLE ${db}.queue_partitions DROP INDEX IF EXISTS by_owner, DROP COLUMN IF EXISTS owner,
                      DROP COLUMN IF EXISTS lease_expires, DROP COLUMN IF EXISTS epoch""")));

    private ShardMigrations() {
    }

    /** An object table: the id's local part is the AUTO_INCREMENT key, every field lives in the JSON blob. */
    private static String objectTable(String name) {
        return """
                CREATE TABLE IF NOT EXISTS ${db}.%s (
                  local_id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
                  data JSON NOT NULL,
                  ts TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3)
                ) ENGINE=InnoDB""".formatted(name);
    }

    /** A one-way mapping on the shard of {@code from_id}; pages are keyset scans of (from_id, sequence, to_id). */
    private static String mappingTable(String name) {
        return """
                CREATE TABLE IF NOT EXISTS ${db}.%s (
                  from_id BIGINT NOT NULL,
                  to_id BIGINT NOT NULL,
                  sequence BIGINT NOT NULL,
                  PRIMARY KEY (from_id, to_id),
                  KEY by_sequence (from_id, sequence, to_id)
                ) ENGINE=InnoDB""".formatted(name);
    }

    public static int latestVersion() {
        return ALL.get(ALL.size() - 1).version();
    }
}
