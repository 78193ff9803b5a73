package io.pinion.seed;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import jakarta.enterprise.context.ApplicationScoped;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.pinion.auth.AuthConfig;
import io.pinion.auth.TokenIssuer;
import io.pinion.id.PinionId;
import io.pinion.auth.Roles;
import io.pinion.users.Grants;
import io.pinion.users.SignUpRequest;
import io.pinion.users.UserGrants;
import io.pinion.users.UserRepository;
import io.pinion.users.UserService;
import io.quarkus.elytron.security.common.BcryptUtil;
import io.smallrye.mutiny.Uni;

/**
 * Seeds a data set ({@code bin/seed}): draws it from the plan, writes users, boards, pins and likes to MySQL and the
 * follow graph (each interest's and pulled author's recent pins, and every user's last visit) to Redis in bulk,
 * enqueues follow backfills for the sample users and waits until its own workers ran them, leaves what the sample
 * users' past visits showed them in their materialized feeds ({@link SeedPastFeeds}), and writes the manifest.
 * Blocks while it works: call it off the event loop.
 */
@ApplicationScoped
public class Seeder {

    public static final String PASSWORD = "seed-password-1";
    /** The longest a seed waits for the backfills it enqueued (the service runs what is left). */
    private static final Duration DRAIN_LIMIT = Duration.ofMinutes(10);

    private final SeedMysqlWriter mysql;
    private final SeedGraphWriter graph;
    private final TokenIssuer tokens;
    private final UserRepository usernames;
    private final UserService users;
    private final UserGrants grants;
    private final AuthConfig auth;
    private final ObjectMapper json;
    private final SeedDrain drain;
    private final SeedPastFeeds pastFeeds;

    Seeder(
            SeedMysqlWriter mysql,
            SeedGraphWriter graph,
            TokenIssuer tokens,
            UserRepository usernames,
            UserService users,
            UserGrants grants,
            AuthConfig auth,
            ObjectMapper json,
            SeedDrain drain,
            SeedPastFeeds pastFeeds) {
        this.drain = drain;
        this.pastFeeds = pastFeeds;
        this.grants = grants;
        this.mysql = mysql;
        this.graph = graph;
        this.tokens = tokens;
        this.usernames = usernames;
        this.users = users;
        this.auth = auth;
        this.json = json;
    }

    public SeedReport run(
            SeedPlan plan, Path out, String workerName, boolean backfill, PrintStream log, boolean terminal)
            throws Exception {
        long started = System.nanoTime();
        mysql.checkHosts().await().indefinitely();
        if (mysql.alreadySeeded(plan).await().indefinitely()) {
            throw new IllegalStateException(
                    "users of prefix '" + plan.prefix() + "' exist already: choose another --prefix or --seed");
        }
        Map<String, Double> seconds = new LinkedHashMap<>();
        long drawStart = System.nanoTime();
        SeedData data = SeedGenerator.generate(plan, System.currentTimeMillis());
        seconds.put("draw", (System.nanoTime() - drawStart) / 1e9);
        log.printf("drawn in %.1fs: %s%n", seconds.get("draw"), SeedManifest.counts(data));
        SeedIds ids = new SeedIds(data);
        String hash = BcryptUtil.bcryptHash(PASSWORD, auth.bcryptCost());
        phase("users", plan.users(), seconds, log, terminal, p -> mysql.users(data, ids, hash, p));
        phase("boards", data.boards(), seconds, log, terminal, p -> mysql.boards(data, ids, p));
        phase("pins", plan.pins(), seconds, log, terminal, p -> mysql.pins(data, ids, p));
        phase("likes", 2L * data.likes(), seconds, log, terminal, p -> mysql.likes(data, ids, p));
        phase("follows", 2L * data.follows(), seconds, log, terminal, p -> graph.userFollows(data, ids, p));
        phase(
                "board+interest",
                (long) data.boardFollows() + data.boardUnfollows() + data.interestFollows(),
                seconds,
                log,
                terminal,
                p -> graph.boardFollows(data, ids, p));
        var recentPins = graph.recentPinWrites(data, ids);
        phase("recent pins", recentPins.size(), seconds, log, terminal, p -> graph.run(recentPins, p));
        var visits = graph.visitWrites(data, ids);
        phase("visits", visits.size(), seconds, log, terminal, p -> graph.run(visits, p));
        int backfills = backfill ? graph.backfillSamples(data, ids).await().indefinitely() : 0;
        if (backfills > 0) {
            long drainStart = System.nanoTime();
            drain.await(DRAIN_LIMIT, log);
            seconds.put("backfills", (System.nanoTime() - drainStart) / 1e9);
            phase("past feeds", data.samples.length, seconds, log, terminal, p -> pastFeeds.write(data, ids, p));
        }
        SeedManifest.Account worker = worker(workerName);
        Map<String, Object> manifest = SeedManifest.build(
                data,
                ids,
                u -> tokens.issue(PinionId.decode(ids.users[u]), SeedNames.username(plan, u), List.of()),
                worker,
                PASSWORD,
                Instant.now().plus(auth.tokenTtl()));
        SeedManifest.write(out, manifest, json);
        int[] followers = data.followerCounts();
        int[] sorted = followers.clone();
        Arrays.sort(sorted);
        double total = (System.nanoTime() - started) / 1e9;
        return new SeedReport(SeedManifest.counts(data), seconds, total, data.fingerprint(), backfills,
                out.resolve("manifest.json").toString(), sorted[sorted.length - 1], sorted[sorted.length / 2]);
    }

    private static void phase(String name, long total, Map<String, Double> seconds, PrintStream log, boolean terminal,
            Function<SeedProgress, Uni<Void>> work) {
        SeedProgress progress = new SeedProgress(name, total, log, terminal);
        work.apply(progress).await().indefinitely();
        seconds.put(name, progress.finish());
    }

    /**
     * The worker account: created through sign-up the first time, found by name after that, and granted the admin
     * and worker roles (bin/seed is an operator's command, like bin/admin), so the job scripts can create their queue
     * and use it.
     */
    private SeedManifest.Account worker(String name) {
        PinionId found = usernames.findIdByUsername(name).await().indefinitely();
        PinionId id = found != null
                ? found
                : PinionId.parse(users.signUp(new SignUpRequest(name, PASSWORD, "Load script worker"))
                        .await()
                        .indefinitely()
                        .id());
        grants.grantRole(id, Roles.ADMIN).await().indefinitely();
        Grants granted = grants.grantRole(id, Roles.WORKER).await().indefinitely();
        return new SeedManifest.Account(id.toString(), name, tokens.issue(id, name, granted.roles()));
    }
}
