package io.pinion.seed;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

/**
 * What load scripts need from a seeded data set, written to {@code manifest.json} (read by {@code k6/}) and to plain
 * side files for wrk: {@code users.tsv} ({@code id<TAB>token} of the sample users), {@code boards.txt},
 * {@code pins.txt}, {@code heavy.txt} and {@code light.txt} (author ids), one per line. The format is described in
 * docs/seed.md.
 */
final class SeedManifest {

    static final int SAMPLE_OBJECTS = 1000;
    static final int LIGHT_AUTHORS = 100;

    /** A user with a token, for the manifest. */
    record Account(String id, String username, String token) {
    }

    private SeedManifest() {
    }

    static Map<String, Object> build(SeedData data, SeedIds ids, IntFunction<String> tokenOf, Account worker,
            String password, Instant tokenExpiry) {
        Map<String, Object> manifest = new LinkedHashMap<>();
        manifest.put("version", 1);
        manifest.put("seed", data.plan.seed());
        manifest.put("prefix", data.plan.prefix());
        manifest.put("generatedAt", Instant.ofEpochMilli(data.nowMs).toString());
        manifest.put("tokenExpiresAt", tokenExpiry.toString());
        manifest.put("password", password);
        manifest.put("counts", counts(data));
        manifest.put("interests", SeedGenerator.INTERESTS);
        int[] followers = data.followerCounts();
        List<Map<String, Object>> users = new ArrayList<>();
        for (int u : data.samples) {
            Map<String, Object> user = author(data, ids, u, followers);
            user.put("token", tokenOf.apply(u));
            users.add(user);
        }
        manifest.put("users", users);
        List<Map<String, Object>> heavy = new ArrayList<>();
        for (int u = 0; u < data.plan.heavyAuthors(); u++) {
            heavy.add(author(data, ids, u, followers));
        }
        manifest.put("heavyAuthors", heavy);
        manifest.put("lightAuthors", lightAuthors(data, ids, followers));
        List<String> pins = new ArrayList<>();
        List<String> boards = new ArrayList<>();
        int step = Math.max(1, data.plan.pins() / SAMPLE_OBJECTS);
        for (int p = 0; p < data.plan.pins() && pins.size() < SAMPLE_OBJECTS; p += step) {
            pins.add(Long.toString(ids.pins[p]));
            String board = Long.toString(ids.boards[data.pinBoard[p]]);
            if (!boards.contains(board)) {
                boards.add(board);
            }
        }
        manifest.put("boards", boards);
        manifest.put("pins", pins);
        manifest.put("worker", Map.of("id", worker.id(), "username", worker.username(), "token", worker.token()));
        return manifest;
    }

    static Map<String, Object> counts(SeedData data) {
        Map<String, Object> counts = new LinkedHashMap<>();
        counts.put("users", data.plan.users());
        counts.put("boards", data.boards());
        counts.put("pins", data.plan.pins());
        counts.put("likes", data.likes());
        counts.put("follows", data.follows());
        counts.put("boardFollows", data.boardFollows());
        counts.put("boardUnfollows", data.boardUnfollows());
        counts.put("interestFollows", data.interestFollows());
        counts.put("inactiveUsers", data.inactiveUsers(data.nowMs - 14 * SeedGenerator.DAY_MS));
        return counts;
    }

    private static Map<String, Object> author(SeedData data, SeedIds ids, int u, int[] followers) {
        Map<String, Object> author = new LinkedHashMap<>();
        author.put("id", Long.toString(ids.users[u]));
        author.put("username", SeedNames.username(data.plan, u));
        author.put("followers", followers[u]);
        List<String> boards = new ArrayList<>();
        for (int b = data.boardStart[u]; b < data.boardStart[u + 1]; b++) {
            boards.add(Long.toString(ids.boards[b]));
        }
        author.put("boards", boards);
        return author;
    }

    /** Up to {@value #LIGHT_AUTHORS} users with tens of followers (10-99), in index order. */
    private static List<Map<String, Object>> lightAuthors(SeedData data, SeedIds ids, int[] followers) {
        List<Map<String, Object>> light = new ArrayList<>();
        for (int u = data.plan.heavyAuthors(); u < followers.length && light.size() < LIGHT_AUTHORS; u++) {
            if (followers[u] >= 10 && followers[u] < 100) {
                light.add(author(data, ids, u, followers));
            }
        }
        return light;
    }

    @SuppressWarnings("unchecked")
    static void write(Path dir, Map<String, Object> manifest, ObjectMapper json) throws IOException {
        Files.createDirectories(dir);
        json.copy()
                .enable(SerializationFeature.INDENT_OUTPUT)
                .writeValue(dir.resolve("manifest.json").toFile(), manifest);
        StringBuilder users = new StringBuilder();
        for (Map<String, Object> user : (List<Map<String, Object>>) manifest.get("users")) {
            users.append(user.get("id")).append('\t').append(user.get("token")).append('\n');
        }
        Files.writeString(dir.resolve("users.tsv"), users);
        Files.write(dir.resolve("boards.txt"), (List<String>) manifest.get("boards"));
        Files.write(dir.resolve("pins.txt"), (List<String>) manifest.get("pins"));
        Files.write(dir.resolve("heavy.txt"), ids((List<Map<String, Object>>) manifest.get("heavyAuthors")));
        Files.write(dir.resolve("light.txt"), ids((List<Map<String, Object>>) manifest.get("lightAuthors")));
    }

    private static List<String> ids(List<Map<String, Object>> users) {
        return users.stream().map(user -> (String) user.get("id")).toList();
    }
}
