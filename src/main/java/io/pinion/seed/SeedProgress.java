package io.pinion.seed;

import java.io.PrintStream;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A progress bar for one phase of a seed on a terminal: done/total, percent, rate and ETA, redrawn at most every
 * 200 ms on one line ({@code \r}); when the output is not a terminal, a plain line every 5 seconds instead.
 */
final class SeedProgress {

    private final String phase;
    private final long total;
    private final PrintStream out;
    private final boolean terminal;
    private final long started = System.nanoTime();
    private final AtomicLong done = new AtomicLong();
    private volatile long lastDrawn;

    SeedProgress(String phase, long total, PrintStream out, boolean terminal) {
        this.phase = phase;
        this.total = total;
        this.out = out;
        this.terminal = terminal;
    }

    void add(long count) {
        long now = System.nanoTime();
        done.addAndGet(count);
        if (now - lastDrawn > (terminal ? 200_000_000L : 5_000_000_000L)) {
            lastDrawn = now;
            draw(false);
        }
    }

    /** Draws the final state; returns the seconds the phase took. */
    double finish() {
        draw(true);
        return seconds();
    }

    private double seconds() {
        return (System.nanoTime() - started) / 1e9;
    }

    synchronized void draw(boolean last) {
        out.print(line(phase, done.get(), total, seconds()) + (terminal && !last ? "\r" : "\n"));
        out.flush();
    }

    /** {@code users    [#########-----------]  45% 45,000/100,000  12,345/s  ETA 4s}. */
    static String line(String phase, long done, long total, double seconds) {
        int width = 24;
        double share = total == 0 ? 1 : Math.min(1, (double) done / total);
        int filled = (int) Math.round(share * width);
        double rate = seconds > 0 ? done / seconds : 0;
        String eta = done >= total
                ? "done in " + format(seconds)
                : rate > 0 ? "ETA " + format((total - done) / rate) : "ETA ?";
        return String.format(
                "%-16s [%s%s] %3d%% %,d/%,d  %,.0f/s  %s",
                phase, "#".repeat(filled), "-".repeat(width - filled), Math.round(share * 100), done, total, rate, eta);
    }

    private static String format(double seconds) {
        return seconds < 60
                ? String.format("%.1fs", seconds)
                : String.format("%dm%02ds", (long) seconds / 60, (long) seconds % 60);
    }
}
