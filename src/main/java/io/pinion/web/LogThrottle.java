package io.pinion.web;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * At most one log line per key per interval: {@link #admit} answers how many were suppressed since the last line
 * admitted (0 or more), or -1 when this one is to be suppressed too. Lock-free; keys are a small fixed set (error
 * codes).
 */
final class LogThrottle {

    private final long intervalMs;
    private final ConcurrentHashMap<String, Window> windows = new ConcurrentHashMap<>();

    LogThrottle(long intervalMs) {
        this.intervalMs = intervalMs;
    }

    private static final class Window {
        final AtomicLong next = new AtomicLong();
        final AtomicLong suppressed = new AtomicLong();
    }

    long admit(String key) {
        Window window = windows.computeIfAbsent(key, k -> new Window());
        long now = System.currentTimeMillis();
        long next = window.next.get();
        if (now >= next && window.next.compareAndSet(next, now + intervalMs)) {
            return window.suppressed.getAndSet(0);
        }
        window.suppressed.incrementAndGet();
        return -1;
    }
}
