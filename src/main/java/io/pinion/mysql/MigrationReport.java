package io.pinion.mysql;

/**
 * What one migration run did.
 *
 * @param databases      shard databases checked
 * @param applied        migrations applied in total (0 when everything was current)
 * @param latestVersion  the version every shard database is at now
 * @param millis         wall time of the run
 */
public record MigrationReport(int databases, int applied, int latestVersion, long millis) {

    MigrationReport plus(MigrationReport other) {
        return new MigrationReport(databases + other.databases, applied + other.applied, latestVersion, millis);
    }
}
