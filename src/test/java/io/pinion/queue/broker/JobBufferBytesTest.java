package io.pinion.queue.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.pinion.id.ObjectType;
import io.pinion.id.PinionId;
import io.pinion.queue.LeasedJob;

/**
 * A partition's buffer counts the bytes of the bodies it holds through every way in and out, which is what bounds
 * its prefetch ({@code pinion.queue.buffer-max-bytes}).
 */
class JobBufferBytesTest {

    @Test
    void theBytesFollowEveryAddTakePutBackAndDrain() {
        JobBuffer buffer = new JobBuffer(false);
        List<LeasedJob> jobs = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            jobs.add(job(i, 1 + i % 3, 1_000 * (i + 1)));
        }
        buffer.addAll(jobs);
        assertEquals(15_000, buffer.bytes());
        List<LeasedJob> stale = new ArrayList<>();
        List<LeasedJob> taken = buffer.poll(2, job -> false, stale);
        assertEquals(15_000 - taken.stream().mapToInt(job -> job.body().length).sum(), buffer.bytes());
        buffer.putBack(taken.get(0));
        assertEquals(15_000 - taken.get(1).body().length, buffer.bytes());
        buffer.removeIf(job -> job.body().length == 5_000);
        buffer.drain();
        assertEquals(0, buffer.bytes());
        assertEquals(0, buffer.size());
    }

    private static LeasedJob job(int n, int priority, int bytes) {
        return new LeasedJob(
                PinionId.of(1, ObjectType.JOB, n + 1), "q", null, priority, new byte[bytes], 1, 1L, 3, 0, 0, 0);
    }
}
