package io.pinion.feed.explain;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The feed jobs bearing on the pin's way to the user that are pending, running or failed, and how they were looked
 * for.
 *
 * @param jobs        what was found, newest update first
 * @param lookups     each lookup, with its bound
 * @param unavailable the lookups that failed, and why
 */
record JobsFinding(List<FoundJob> jobs, List<String> lookups, List<String> unavailable) implements Finding {

    /** The newest unfinished job with the purpose. */
    Optional<FoundJob> unfinished(FoundJob.Purpose purpose) {
        return jobs.stream().filter(job -> job.purpose() == purpose && job.unfinished()).findFirst();
    }

    /** The newest failed job with the purpose. */
    Optional<FoundJob> failed(FoundJob.Purpose purpose) {
        return jobs.stream().filter(job -> job.purpose() == purpose && !job.unfinished()).findFirst();
    }

    @Override
    public String summary() {
        String found = jobs.isEmpty() ? "no pending, running or failed feed job for this pin and user"
                : String.join("; ", jobs.stream().map(FoundJob::describe).toList());
        return unavailable.isEmpty() ? found : found + "; not read: " + String.join("; ", unavailable);
    }

    @Override
    public Map<String, Object> evidence() {
        return new Evidence()
                .put("jobs", jobs.stream().map(FoundJob::evidence).toList())
                .put("lookups", lookups)
                .put("unavailable", unavailable)
                .map();
    }
}
