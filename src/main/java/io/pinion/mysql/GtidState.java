package io.pinion.mysql;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A set of MariaDB GTIDs by (domain, server id): a server's {@code gtid_binlog_state} (the last transaction each
 * server id wrote into its binary log) or its {@code gtid_current_pos} (one GTID per domain). Sequence numbers grow by
 * one per transaction within a domain, whichever server wrote it, so differences count transactions.
 *
 * @param last the last sequence number per {@code domain-serverId}
 */
public record GtidState(Map<String, Long> last) {

    /** Parses {@code 0-1-500,0-11-520}; an empty or null text is the empty state. */
    public static GtidState parse(String text) {
        Map<String, Long> last = new LinkedHashMap<>();
        if (text != null) {
            for (String gtid : text.split(",")) {
                String trimmed = gtid.trim();
                if (trimmed.isEmpty()) {
                    continue;
                }
                int dash = trimmed.lastIndexOf('-');
                if (dash <= 0 || trimmed.indexOf('-') == dash) {
                    throw new IllegalArgumentException("not a GTID: " + trimmed);
                }
                last.merge(trimmed.substring(0, dash), Long.parseLong(trimmed.substring(dash + 1)), Math::max);
            }
        }
        return new GtidState(java.util.Collections.unmodifiableMap(last));
    }

    /**
     * How many transactions past {@code masterBinlog} (a master's {@code gtid_binlog_state}) this position (a server's
     * {@code gtid_current_pos}: one GTID per domain) stands: zero when the master logged every position, so the server
     * can replicate from it; more when the server holds transactions the master never received (an old master that
     * crashed before they reached its replica), and cannot follow it without being rebuilt.
     */
    public long aheadOf(GtidState masterBinlog) {
        long ahead = 0;
        for (Map.Entry<String, Long> entry : last.entrySet()) {
            Long theirs = masterBinlog.last.get(entry.getKey());
            if (theirs == null) {
                String domain = entry.getKey().substring(0, entry.getKey().indexOf('-') + 1);
                long domainLast = masterBinlog.last.entrySet().stream().filter(e -> e.getKey().startsWith(domain))
                        .mapToLong(Map.Entry::getValue).max().orElse(0);
                ahead += Math.max(1, entry.getValue() - domainLast);
            } else if (entry.getValue() > theirs) {
                ahead += entry.getValue() - theirs;
            }
        }
        return ahead;
    }

    /**
     * Whether this position (a server's {@code gtid_current_pos}) has reached {@code target} (another server's
     * {@code gtid_binlog_pos}): in every domain of the target, a sequence number at least the target's. Servers that
     * replicate each other share one sequence per domain, so this holds once the server applied the target's last
     * transaction, whether it got it by replication or wrote it itself.
     */
    public boolean covers(GtidState target) {
        for (Map.Entry<String, Long> entry : target.last.entrySet()) {
            String domain = entry.getKey().substring(0, entry.getKey().indexOf('-') + 1);
            long reached = last.entrySet().stream().filter(e -> e.getKey().startsWith(domain))
                    .mapToLong(Map.Entry::getValue).max().orElse(0);
            if (reached < entry.getValue()) {
                return false;
            }
        }
        return true;
    }

    @Override
    public String toString() {
        return String.join(",", last.entrySet().stream().map(e -> e.getKey() + "-" + e.getValue()).toList());
    }
}
