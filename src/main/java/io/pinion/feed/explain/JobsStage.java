package io.pinion.feed.explain;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.feed.fanout.FeedJobs;
import io.pinion.graph.FollowEvents;
import io.pinion.id.PinionId;
import io.pinion.queue.Job;
import io.pinion.queue.JobQueries;
import io.pinion.queue.Queue;
import io.pinion.queue.QueueRegistry;
import io.smallrye.mutiny.Uni;

/**
 * Stage {@code jobs}: the feed jobs of the pin and the user that are not done, or failed. Job bodies are not
 * indexed, so most lookups read a bounded slice of each partition (the newest {@value #PER_STATE} pending, running
 * and failed jobs) and match bodies by text there; keys that are indexed are looked up exactly: the dedupe keys of
 * the pin's fan-out pages after the first, and of the user's regeneration and trim. Each lookup fails alone.
 */
@ApplicationScoped
class JobsStage {

    /** Jobs read per partition and state by a bounded lookup. */
    static final int PER_STATE = 100;

    private final QueueRegistry registry;
    private final JobQueries queries;
    private final FeedJobBodies bodies;

    JobsStage(QueueRegistry registry, JobQueries queries, FeedJobBodies bodies) {
        this.registry = registry;
        this.queries = queries;
        this.bodies = bodies;
    }

    /** A lookup in one queue and the words that say what it reads. */
    private record Lookup(String queue, String reads, Function<Queue, Uni<List<Job>>> jobs) {
    }

    /** What one lookup found, or why it found nothing. */
    private record Looked(Lookup lookup, List<Job> jobs, String failure) {
    }

    /** The pin's data narrows follow events to its author, board and interests; without it they are not read. */
    Uni<StageRead<JobsFinding>> read(long user, long pin, PinFinding found) {
        String pinField = "\"pin\":\"" + pin + "\"";
        String userItem = "\"" + user + "\"";
        List<Lookup> lookups = new ArrayList<>(List.of(
                bounded(FeedJobs.FANOUT, pinField),
                prefixed(FeedJobs.FANOUT, "fanout:" + pin + ":"),
                bounded(FeedJobs.POOL_INSERT, pinField, userItem),
                bounded(FeedJobs.PURGE, pinField, userItem),
                bounded(FeedJobs.PERSIST, "\"user\":" + user + ",", "\"pin\":" + pin + ","),
                keyed(FeedJobs.REGENERATE, "regenerate:" + user),
                keyed(FeedJobs.TRIM, "trim:" + user)));
        if (found != null) {
            lookups.add(bounded(FollowEvents.QUEUE, "\"userId\":\"" + user + "\""));
        }
        List<Uni<Looked>> runs = lookups.stream().map(this::run).toList();
        Uni<JobsFinding> finding = Uni.join().all(runs).andFailFast().map(looked -> finding(looked, user, pin, found));
        List<String> queues = lookups.stream().map(Lookup::queue).distinct().toList();
        return StageRead.bounded(Stage.JOBS, "job queue (" + String.join(", ", queues) + ")", finding);
    }

    private Uni<Looked> run(Lookup lookup) {
        return registry.get(lookup.queue())
                .chain(queue -> lookup.jobs().apply(queue))
                .map(jobs -> new Looked(lookup, jobs, null))
                .onFailure().recoverWithItem(failure -> new Looked(lookup, List.of(),
                        lookup.queue() + ": " + StageRead.describe("job lookup in " + lookup.queue(), failure)));
    }

    private JobsFinding finding(List<Looked> looked, long user, long pin, PinFinding found) {
        Map<PinionId, Job> jobs = new LinkedHashMap<>();
        List<String> reads = new ArrayList<>();
        List<String> unavailable = new ArrayList<>();
        for (Looked one : looked) {
            one.jobs().forEach(job -> jobs.putIfAbsent(job.id(), job));
            reads.add(one.lookup().queue() + ": " + one.lookup().reads());
            if (one.failure() != null) {
                unavailable.add(one.failure());
            }
        }
        List<FoundJob> bearing = jobs.values().stream()
                .map(job -> bodies.classify(job, user, pin, found))
                .filter(Objects::nonNull)
                .sorted(Comparator.comparingLong((FoundJob job) -> job.job().updatedAt()).reversed())
                .toList();
        return new JobsFinding(bearing, reads, unavailable);
    }

    private Lookup bounded(String queue, String... texts) {
        List<String> held = List.of(texts);
        return new Lookup(
                queue,
                "newest " + PER_STATE + " pending, running and failed jobs of each partition, bodies holding "
                        + String.join(" and ", held),
                q -> queries.recentContaining(q, held, PER_STATE));
    }

    private Lookup prefixed(String queue, String prefix) {
        return new Lookup(queue, "unfinished jobs with dedupe keys " + prefix + "* (dedupe index, up to " + PER_STATE
                + " per partition)", q -> queries.holdingPrefix(q, prefix, PER_STATE));
    }

    private Lookup keyed(String queue, String key) {
        return new Lookup(queue, "the unfinished job with dedupe key " + key + " (dedupe index)",
                q -> queries.holding(q, key).map(job -> job == null ? List.of() : List.of(job)));
    }
}
