package io.pinion.hedge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/** The latency histogram: bucket layout, quantiles, forgetting old samples, concurrent recording. */
class LatencyWindowTest {

    @Test
    void bucketsCoverEveryValueContiguouslyAndAreAtMostASixteenthWide() {
        for (int b = 0; b < LatencyWindow.BUCKETS - 1; b++) {
            assertEquals(
                    LatencyWindow.lowerBound(b) + LatencyWindow.width(b),
                    LatencyWindow.lowerBound(b + 1),
                    "bucket " + b);
            if (b >= 16) {
                assertTrue(LatencyWindow.width(b) * 16 <= LatencyWindow.lowerBound(b), "bucket " + b);
            }
        }
        for (long v = 0; v < 40_000_000L; v = v * 5 / 4 + 1) {
            int b = LatencyWindow.bucket(v);
            assertTrue(LatencyWindow.lowerBound(b) <= v && v < LatencyWindow.lowerBound(b) + LatencyWindow.width(b)
                    || b == LatencyWindow.BUCKETS - 1, "value " + v);
        }
        assertEquals(LatencyWindow.BUCKETS - 1, LatencyWindow.bucket(Long.MAX_VALUE));
        assertEquals(0, LatencyWindow.bucket(-5));
    }

    @Test
    void quantilesOfUniformValuesAreWithinABucket() {
        LatencyWindow window = new LatencyWindow(100_000);
        for (long v = 1; v <= 10_000; v++) {
            window.record(v);
        }
        assertEquals(10_000, window.size());
        assertEquals(5_000, window.quantile(0.5), 5_000 * 0.03);
        assertEquals(9_990, window.quantile(0.999), 9_990 * 0.03);
        assertEquals(1, window.quantile(0.00001), 1);
    }

    @Test
    void anEmptyWindowHasNoLatency() {
        assertEquals(0.0, new LatencyWindow(1_000).quantile(0.999));
    }

    @Test
    void oldSamplesAreForgottenATenthOfTheWindowAtATime() {
        LatencyWindow window = new LatencyWindow(1_000);
        for (int i = 0; i < 1_000; i++) {
            window.record(100);
        }
        assertEquals(900, window.size());
        for (int i = 0; i < 899; i++) {
            window.record(5_000);
        }
        assertEquals(100, window.quantile(0.001), 10);
        window.record(5_000);
        assertEquals(900, window.size());
        assertTrue(window.quantile(0.001) >= 4_096, "every 100 µs sample is gone");
    }

    @Test
    void concurrentRecordingLosesNoSample() throws InterruptedException {
        LatencyWindow window = new LatencyWindow(1_000_000);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            long latency = 1_000 * (t + 1);
            Thread thread = new Thread(() -> {
                for (int i = 0; i < 25_000; i++) {
                    window.record(latency);
                }
            });
            thread.start();
            threads.add(thread);
        }
        for (Thread thread : threads) {
            thread.join();
        }
        assertEquals(100_000, window.size());
        assertEquals(4_000, window.quantile(0.999), 4_000 * 0.07);
    }
}
