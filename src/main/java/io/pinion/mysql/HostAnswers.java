package io.pinion.mysql;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * When each MySQL host last answered a statement (a result or a server error), so that a statement past its deadline
 * tells a busy host (it answered others meanwhile: the statement waited behind them) from a hung one (it answered
 * nothing). Any thread; one volatile write per answer.
 */
final class HostAnswers {

    private final Map<String, AtomicLong> lastAnswer = new ConcurrentHashMap<>();

    /** The host answered a statement now. */
    void answered(String host) {
        lastAnswer.computeIfAbsent(host, h -> new AtomicLong()).set(System.nanoTime());
    }

    /** Whether the host answered any statement after {@code sinceNanos} ({@link System#nanoTime()}). */
    boolean answeredSince(String host, long sinceNanos) {
        AtomicLong last = lastAnswer.get(host);
        return last != null && last.get() - sinceNanos > 0;
    }
}
