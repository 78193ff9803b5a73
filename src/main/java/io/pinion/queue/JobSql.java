package io.pinion.queue;

import java.util.List;

import io.pinion.mysql.ShardSql;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * Every statement on a job partition table, in one place; the classes that run them ({@link JobWriter},
 * {@link JobAcks}, {@link JobQueries}, {@link JobRepairs}, {@link JobTables} and the broker's partition statements)
 * bind the arguments and read the rows. States are written with {@link JobState}'s codes.
 *
 * <p>A row carries a job's whole life: state, priority, schedule, attempts, lease, body, custom status and an
 * optional dedupe key that is unique only while the job is not finished ({@code dedupe_active} is cleared when it
 * finishes; NULLs never collide). Indexes: {@code due} serves the owner's prefetch (priority, then run_after, then
 * id); {@code by_state_time} serves both the expired-lease sweep (a lease always ends at least a second after the
 * row's last update, so expired leases are among the RUNNING rows not updated in the last second) and the retention
 * GC of finished jobs. Every index costs CPU on each enqueue and state change, so there are no others.
 */
public final class JobSql {

    /** A custom status keeps its newest this many characters. */
    public static final int MAX_STATUS_CHARS = 5_000;

    /** A statement whose text depends on its arguments, with them. */
    public record Statement(String text, Tuple args) {
    }

    private static final int PENDING = JobState.PENDING.code();
    private static final int RUNNING = JobState.RUNNING.code();
    private static final int SUCCEEDED = JobState.SUCCEEDED.code();
    private static final int FAILED = JobState.FAILED.code();
    private static final String FINISHED = "(" + SUCCEEDED + ", " + FAILED + ")";
    private static final String UNFINISHED = "(" + PENDING + ", " + RUNNING + ")";
    /** After a failed attempt: FAILED when the attempts are spent, PENDING otherwise. */
    private static final String AFTER_FAILURE =
            "IF(attempts_made >= attempts_allowed, " + FAILED + ", " + PENDING + ")";

    /**
     * Statements on a list of ids must walk the primary key: left alone, the optimizer may range-scan an index that
     * starts with {@code state} and lock every RUNNING row, deadlocking with the owner's prefetch.
     */
    private static final String BY_ID = " FORCE INDEX (PRIMARY)";
    private static final String APPEND_STATUS = "RIGHT(CONCAT_WS('\\n', status, ?), " + MAX_STATUS_CHARS + ")";
    private static final String JOB_COLUMNS = "id, state, priority, body, attempts_made, attempts_allowed, run_after,"
            + " lease_owner, lease_expires, created_at, updated_at, status, dedupe_key";
    private static final String INSERT_COLUMNS = "(id, state, priority, run_after, attempts_made, attempts_allowed,"
            + " body, dedupe_key, dedupe_active, created_at, updated_at)";
    private static final String INSERT_ROW = "(?, " + PENDING + ", ?, ?, 0, ?, ?, ?, ?, ?, ?)";

    private static final String CREATE = """
        CREATE TABLE IF NOT EXISTS %s (
          id BIGINT NOT NULL PRIMARY KEY,
          state TINYINT NOT NULL,
          priority TINYINT NOT NULL,
          run_after BIGINT NOT NULL,
          attempts_made INT NOT NULL DEFAULT 0,
          attempts_allowed INT NOT NULL,
          lease_owner VARCHAR(64) NULL,
          lease_expires BIGINT NULL,
          lease_seq BIGINT NOT NULL DEFAULT 0,
          leased_at BIGINT NULL,
          body MEDIUMBLOB NOT NULL,
          status TEXT NULL,
          dedupe_key VARCHAR(191) NULL,
          dedupe_active VARCHAR(191) NULL,
          created_at BIGINT NOT NULL,
          updated_at BIGINT NOT NULL,
          UNIQUE KEY dedupe (dedupe_active),
          KEY due (state, priority, run_after, id),
          KEY by_state_time (state, updated_at)
        ) ENGINE=InnoDB\
        """;

    private JobSql() {
    }

    // the table

    public static String create(String table) {
        return CREATE.formatted(table);
    }

    /**
     * Brings a partition table made before leases had their own sequence to today's shape: {@code lease_seq} counts
     * every lease of the job and is never reset (tokens name it, so a retried job's new leases never repeat an old
     * token); {@code leased_at} is when the current lease began (the cap on checkpoints). Instant in MariaDB, and a
     * no-op on a table that has them.
     */
    public static String addLeaseColumns(String table) {
        return "ALTER TABLE " + table + " ADD COLUMN IF NOT EXISTS lease_seq BIGINT NOT NULL DEFAULT 0,"
                + " ADD COLUMN IF NOT EXISTS leased_at BIGINT NULL";
    }

    public static String drop(String table) {
        return "DROP TABLE IF EXISTS " + table;
    }

    // enqueue

    /** Binds per row: id, priority, run_after, attempts_allowed, body, dedupe_key twice, created_at, updated_at. */
    public static String insert(String table, int rows, boolean deduped) {
        StringBuilder statement = new StringBuilder("INSERT INTO ").append(table).append(' ').append(INSERT_COLUMNS)
                .append(" VALUES ");
        for (int k = 0; k < rows; k++) {
            statement.append(k == 0 ? "" : ",").append(INSERT_ROW);
        }
        if (deduped) {
            statement.append(" ON DUPLICATE KEY UPDATE id = id");
        }
        return statement.toString();
    }

    /**
     * Jobs written already leased (RUNNING, first attempt, first lease) to a broker that takes them into its buffer:
     * binds per row id, priority, run_after, attempts_allowed, body, created_at, updated_at, lease_owner,
     * lease_expires, leased_at.
     */
    public static String insertLeased(String table, int rows) {
        StringBuilder statement = new StringBuilder("INSERT INTO ")
                .append(table)
                .append(" (id, state, priority, run_after, attempts_made, attempts_allowed, body, created_at,"
                        + " updated_at,")
                .append(" lease_owner, lease_expires, lease_seq, leased_at) VALUES ");
        for (int k = 0; k < rows; k++) {
            statement
                    .append(k == 0 ? "" : ",")
                    .append("(?, ")
                    .append(RUNNING)
                    .append(", ?, ?, 1, ?, ?, ?, ?, ?, ?, 1, ?)");
        }
        return statement.toString();
    }

    /** Which jobs hold the given dedupe keys: binds the keys. */
    public static String dedupeHolders(String table, int keys) {
        return "SELECT id, dedupe_active FROM " + table + " WHERE dedupe_active IN (" + ShardSql.placeholders(keys)
                + ")";
    }

    // reading

    /** Binds the id. */
    public static String job(String table) {
        return "SELECT " + JOB_COLUMNS + " FROM " + table + " WHERE id = ?";
    }

    /** Binds the state code, the id to start after and the limit. */
    public static String scan(String table) {
        return "SELECT " + JOB_COLUMNS + " FROM " + table + " WHERE state = ? AND id > ? ORDER BY id LIMIT ?";
    }

    /** The unfinished job holding a dedupe key, read from the {@code dedupe} index: binds the key. */
    public static String holder(String table) {
        return "SELECT " + JOB_COLUMNS + " FROM " + table + " WHERE dedupe_active = ?";
    }

    /**
     * Unfinished jobs whose dedupe key starts with a prefix, a range of the {@code dedupe} index: binds the
     * {@link #likePrefix} pattern and the limit.
     */
    public static String holdersOfPrefix(String table) {
        return "SELECT " + JOB_COLUMNS + " FROM " + table
                + " WHERE dedupe_active LIKE ? ORDER BY dedupe_active LIMIT ?";
    }

    /**
     * Of the newest PENDING, RUNNING and FAILED jobs (a limit of each, newest update first, read from the
     * {@code by_state_time} index), those whose body holds every one of {@code texts} byte for byte: binds the limit
     * three times, then a {@link #likeContaining} pattern per text. The body is matched only within the limited rows,
     * so the statement never reads more than three limits of rows, however large the table.
     */
    public static String recentContaining(String table, int texts) {
        StringBuilder statement = new StringBuilder("SELECT ").append(JOB_COLUMNS).append(" FROM (");
        int[] states = { PENDING, RUNNING, FAILED };
        for (int i = 0; i < states.length; i++) {
            statement
                    .append(i == 0 ? "" : " UNION ALL ")
                    .append("(SELECT ")
                    .append(JOB_COLUMNS)
                    .append(" FROM ")
                    .append(table)
                    .append(" WHERE state = ")
                    .append(states[i])
                    .append(" ORDER BY updated_at DESC LIMIT ?)");
        }
        statement.append(") AS recent WHERE ");
        for (int i = 0; i < texts; i++) {
            statement.append(i == 0 ? "" : " AND ").append("body LIKE ?");
        }
        return statement.append(" ORDER BY updated_at DESC").toString();
    }

    /** A LIKE pattern matching what starts with {@code prefix} (its wildcards escaped). */
    public static String likePrefix(String prefix) {
        return escapeLike(prefix) + "%";
    }

    /** A LIKE pattern matching what contains {@code text} (its wildcards escaped). */
    public static String likeContaining(String text) {
        return "%" + escapeLike(text) + "%";
    }

    private static String escapeLike(String text) {
        return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
    }

    /** Count per state and the oldest due run_after; binds now. */
    public static String countsByState(String table) {
        return "SELECT state, COUNT(*) AS n, MIN(IF(state = " + PENDING + " AND run_after <= ?, run_after, NULL))"
                + " AS oldest FROM " + table + " GROUP BY state";
    }

    /** Binds the id. */
    public static String state(String table) {
        return "SELECT state FROM " + table + " WHERE id = ?";
    }

    /** State and last update of several jobs: binds the ids. */
    public static String states(String table, int ids) {
        return "SELECT id, state, updated_at FROM " + table + BY_ID + " WHERE id IN (" + ShardSql.placeholders(ids)
                + ")";
    }

    // repairs

    /** A FAILED job back to PENDING with fresh attempts: binds run_after, updated_at and the id. */
    public static String retry(String table) {
        return "UPDATE " + table + BY_ID + " SET state = " + PENDING + ", attempts_made = 0, run_after = ?,"
                + " dedupe_active = dedupe_key, lease_owner = NULL, lease_expires = NULL, updated_at = ?"
                + " WHERE id = ? AND state = " + FAILED;
    }

    /** Up to a limit of FAILED jobs back to PENDING, skipping those whose key is taken: binds now, now, limit. */
    public static String retryFailed(String table) {
        return "UPDATE IGNORE " + table + " SET state = " + PENDING + ", attempts_made = 0, run_after = ?,"
                + " dedupe_active = dedupe_key, updated_at = ? WHERE state = " + FAILED + " LIMIT ?";
    }

    /** Binds the id. */
    public static String delete(String table) {
        return "DELETE FROM " + table + " WHERE id = ?";
    }

    // leases and acks

    /**
     * Extends a RUNNING job's lease, never past a total after the lease began, and appends to its status: binds
     * lease_expires, the total, status twice, updated_at, id, the total again and now and, with {@code lease}, the
     * lease sequence the token names. A lease already at its total changes nothing (the caller sees lease_lost). A
     * lease given before {@code leased_at} existed counts from its last update.
     */
    public static String checkpoint(String table, boolean lease) {
        return "UPDATE " + table + BY_ID + " SET lease_expires = LEAST(?, COALESCE(leased_at, updated_at) + ?),"
                + " status = IF(? IS NULL, status, " + APPEND_STATUS + "), updated_at = ? WHERE id = ? AND state = "
                + RUNNING + " AND COALESCE(leased_at, updated_at) + ? > ?" + (lease ? " AND lease_seq = ?" : "");
    }

    /** The lease's end after a checkpoint: binds the id. */
    public static String leaseExpires(String table) {
        return "SELECT lease_expires FROM " + table + BY_ID + " WHERE id = ?";
    }

    /**
     * One UPDATE for every ack of one partition: successes become SUCCEEDED, failures PENDING after their backoff
     * (their own delay if they gave one) or FAILED after the last attempt; statuses are appended, the dedupe key of a
     * finished job released. Only jobs still RUNNING (under the given attempt, when given) change.
     */
    public static Statement ack(String table, List<Ack> acks, RetryPolicy retry, long now) {
        Tuple args = Tuple.tuple();
        List<Ack> failures = acks.stream().filter(ack -> !ack.success()).toList();
        StringBuilder statement = new StringBuilder("UPDATE ").append(table).append(BY_ID).append(" SET state = ");
        if (failures.isEmpty()) {
            statement.append(SUCCEEDED);
        } else {
            statement.append("CASE WHEN id IN (").append(ShardSql.placeholders(failures.size())).append(") THEN ")
                    .append(AFTER_FAILURE).append(" ELSE ").append(SUCCEEDED).append(" END");
            failures.forEach(ack -> args.addLong(ack.id().value()));
            statement.append(", run_after = IF(state = ").append(PENDING).append(", ? + ");
            args.addLong(now);
            List<Ack> overrides = failures.stream().filter(ack -> ack.retryDelayMs() != null).toList();
            if (overrides.isEmpty()) {
                statement.append(retry.sqlDelayAfterAttempts());
            } else {
                statement.append("CASE id");
                overrides.forEach(ack -> {
                    statement.append(" WHEN ? THEN ?");
                    args.addLong(ack.id().value()).addLong(ack.retryDelayMs());
                });
                statement.append(" ELSE ").append(retry.sqlDelayAfterAttempts()).append(" END");
            }
            statement.append(", run_after)");
        }
        List<Ack> withStatus = acks.stream().filter(ack -> ack.status() != null).toList();
        if (!withStatus.isEmpty()) {
            statement.append(", status = CASE id");
            withStatus.forEach(ack -> {
                statement.append(" WHEN ? THEN ").append(APPEND_STATUS);
                args.addLong(ack.id().value()).addString(ack.status());
            });
            statement.append(" ELSE status END");
        }
        statement.append(", dedupe_active = IF(state IN ").append(FINISHED).append(", NULL, dedupe_active),")
                .append(" lease_owner = NULL, lease_expires = NULL, updated_at = ? WHERE id IN (")
                .append(ShardSql.placeholders(acks.size())).append(") AND state = ").append(RUNNING);
        args.addLong(now);
        acks.forEach(ack -> args.addLong(ack.id().value()));
        List<Ack> tokened = acks.stream().filter(ack -> ack.lease() != null).toList();
        if (!tokened.isEmpty()) {
            statement.append(" AND lease_seq = CASE id");
            tokened.forEach(ack -> {
                statement.append(" WHEN ? THEN ?");
                args.addLong(ack.id().value()).addLong(ack.lease());
            });
            statement.append(" ELSE lease_seq END");
        }
        return new Statement(statement.toString(), args);
    }

    // the owning broker

    /**
     * Due ids in hand-out order (priority, run_after, id) with their bodies' sizes ({@code bytes}), picked from the
     * covering {@code due} index one priority at a time, so jobs scheduled for later never slow the scan, then joined
     * to their rows by primary key for the sizes: binds (priority, now, limit) for priorities 1 to 3, then the limit.
     */
    public static String due(String table) {
        String part = "(SELECT id, priority, run_after FROM " + table + " WHERE state = " + PENDING
                + " AND priority = ? AND run_after <= ? ORDER BY run_after, id LIMIT ?)";
        return "SELECT due.id, LENGTH(job.body) AS bytes FROM (SELECT id, priority, run_after FROM (" + part
                + " UNION ALL " + part + " UNION ALL " + part + ") AS picked ORDER BY priority, run_after, id LIMIT ?)"
                + " AS due STRAIGHT_JOIN " + table + " AS job" + BY_ID + " ON job.id = due.id"
                + " ORDER BY due.priority, due.run_after, due.id";
    }

    /** The unfinished rows of a FIFO partition from an id on: binds the id and the limit. */
    public static String head(String table) {
        return "SELECT id, state, run_after, lease_owner FROM " + table + " WHERE id >= ? AND state IN " + UNFINISHED
                + " ORDER BY id LIMIT ?";
    }

    /** Leases PENDING jobs: binds lease_owner, lease_expires, updated_at, leased_at (now twice), then the ids. */
    public static String lease(String table, int ids) {
        return "UPDATE " + table + BY_ID + " SET state = " + RUNNING + ", lease_owner = ?, lease_expires = ?,"
                + " attempts_made = attempts_made + 1, lease_seq = lease_seq + 1, updated_at = ?, leased_at = ?"
                + " WHERE id IN (" + ShardSql.placeholders(ids) + ") AND state = " + PENDING;
    }

    /** The jobs a lease got: binds the ids, lease_owner and lease_expires. */
    public static String leased(String table, int ids) {
        return "SELECT id, priority, run_after, attempts_made, attempts_allowed, lease_seq, body, created_at FROM "
                + table + BY_ID
                + " WHERE id IN (" + ShardSql.placeholders(ids) + ") AND state = " + RUNNING
                + " AND lease_owner = ? AND lease_expires = ?";
    }

    /** Back to PENDING, refunding the attempt: binds updated_at, the ids, lease_owner. */
    public static String release(String table, int ids) {
        return "UPDATE " + table + BY_ID + " SET state = " + PENDING + ", lease_owner = NULL, lease_expires = NULL,"
                + " attempts_made = attempts_made - 1, updated_at = ? WHERE id IN (" + ShardSql.placeholders(ids)
                + ") AND state = " + RUNNING + " AND lease_owner = ?";
    }

    /**
     * Up to 1,000 expired leases back to PENDING after the backoff, or FAILED when the attempts are spent: binds
     * now, updated_at, the last update before which a lease can have expired, and now.
     */
    public static String sweepExpired(String table, RetryPolicy retry) {
        return "UPDATE " + table + " SET state = " + AFTER_FAILURE + ","
                + " run_after = IF(state = " + PENDING + ", ? + " + retry.sqlDelayAfterAttempts() + ", run_after),"
                + " status = RIGHT(CONCAT_WS('\\n', status, CONCAT('attempt ', attempts_made, ': lease expired')), "
                + MAX_STATUS_CHARS + "),"
                + " dedupe_active = IF(state = " + FAILED + ", NULL, dedupe_active), lease_owner = NULL,"
                + " lease_expires = NULL, updated_at = ? WHERE state = " + RUNNING
                + " AND updated_at < ? AND lease_expires < ? LIMIT 1000";
    }

    /** Finished jobs last updated before a time: binds the time and the limit. */
    public static String deleteFinished(String table) {
        return "DELETE FROM " + table + " WHERE state IN " + FINISHED + " AND updated_at < ? LIMIT ?";
    }

    /** Pending jobs and the earliest run_after of each priority (p1, p2, p3), each read from the {@code due} index. */
    public static String depth(String table) {
        String pending = " FROM " + table + " WHERE state = " + PENDING;
        return "SELECT (SELECT COUNT(*)" + pending + ") AS pending,"
                + " (SELECT MIN(run_after)" + pending + " AND priority = 1) AS p1,"
                + " (SELECT MIN(run_after)" + pending + " AND priority = 2) AS p2,"
                + " (SELECT MIN(run_after)" + pending + " AND priority = 3) AS p3";
    }
}
