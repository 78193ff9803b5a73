package io.pinion.mysql;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * One versioned change applied to every shard database. Statements name tables as {@code ${db}.table}; the
 * migrator substitutes the quoted shard database. MySQL DDL is not transactional, so every statement must be safe
 * to run again ({@code IF NOT EXISTS}, …): a migration interrupted half-way is simply run again.
 *
 * @param version     strictly increasing, starting at 1
 * @param description what it does, stored with the version
 * @param statements  SQL statements, run in order
 */
public record ShardMigration(int version, String description, List<String> statements) {

    /** Marks a statement that creates service-wide (control) tables, which live only on the control shard. */
    public static final String CONTROL_ONLY = "/* control */ ";

    public ShardMigration {
        statements = List.copyOf(statements);
    }

    /** SHA-256 of the statements, recorded when applied so an edited migration is detected. */
    public String checksum() {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            for (String statement : statements) {
                digest.update(statement.getBytes(StandardCharsets.UTF_8));
                digest.update((byte) 0);
            }
            return HexFormat.of().formatHex(digest.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The statements with {@code ${db}} replaced by the shard's quoted database name. Statements that start with
     * {@link #CONTROL_ONLY} run only on the control shard ({@link ShardDatabase#CONTROL_SHARD}).
     */
    public List<String> statementsFor(int shard) {
        String db = "`" + ShardDatabase.name(shard) + "`";
        return statements.stream()
                .filter(sql -> shard == ShardDatabase.CONTROL_SHARD || !sql.startsWith(CONTROL_ONLY))
                .map(sql -> sql.replace("${db}", db))
                .toList();
    }
}
