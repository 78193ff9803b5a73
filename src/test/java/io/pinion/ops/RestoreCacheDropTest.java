package io.pinion.ops;

import static io.pinion.TestApi.createBoard;
import static io.pinion.TestApi.newUser;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.pinion.Wait;
import io.pinion.id.PinionId;
import io.pinion.stack.LocalStack;
import io.pinion.stack.StackResource;
import io.pinion.stack.StackTest;
import io.pinion.store.ObjectCache;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The last step of {@code bin/restore}, run as the script runs it ({@code BackupTool caches-drop} on the stack's
 * HBase classpath, against the stack's ZooKeeper): it writes the cache epoch under a cluster's root, and a running
 * instance of that cluster empties its object cache; a root no instance has used is left alone.
 */
@QuarkusTest
@StackTest
class RestoreCacheDropTest {

    private static final String ZOOKEEPER = "127.0.0.1:21821,127.0.0.1:21822,127.0.0.1:21823";

    @Inject
    ObjectCache cache;

    @Test
    void theRestoresDropEmptiesARunningInstancesCacheAndLeavesAnUnusedRootAlone() throws Exception {
        String board = createBoard(newUser(), "cached before the restore");
        long id = PinionId.parse(board).value();
        Wait.within(10_000, () -> {
            if (cache.get(id) != null) {
                return true;
            }
            // a read fills the cache (while its channel delivers)
            given().get("/v1/boards/" + board).then().statusCode(200);
            return false;
        }, "board " + board + " cached");
        assertNotNull(cache.get(id));

        String unused = "/pinion-test/never-used-" + UUID.randomUUID().toString().substring(0, 8);
        String[] answers = tools(List.of("caches-drop", ZOOKEEPER, StackResource.root(), "RestoreCacheDropTest"),
                List.of("caches-drop", ZOOKEEPER, unused, "RestoreCacheDropTest"));
        assertTrue(answers[0].contains("\"dropped\": true"), answers[0]);
        assertTrue(answers[1].contains("\"dropped\": false"), "an unused root is left alone: " + answers[1]);
        Wait.within(5_000, () -> cache.get(id) == null, "the cache lets board " + board + " go after the drop");
        assertNull(cache.get(id));
    }

    /**
     * Runs {@code tool ARGS…} of bin/lib/backup.sh once per list, in order, with the tool compiled once for the local
     * stack, as bin/restore does; the standard output of each.
     */
    @SafeVarargs
    private static String[] tools(List<String>... calls) throws IOException, InterruptedException {
        StringBuilder script = new StringBuilder("set -e; ROOT=\"$1\"; source \"$ROOT/bin/lib/backup.sh\"; "
                + "STACK_DIR=\"$ROOT/.stack\"; compile_tool; trap remove_tool EXIT");
        List<String> command = new java.util.ArrayList<>(List.of("bash", "-c", "", "bash",
                LocalStack.repoRoot().toString()));
        for (List<String> call : calls) {
            script.append("; echo '@@'; tool");
            for (String arg : call) {
                script.append(" \"$").append(command.size() - 3).append('"');
                command.add(arg);
            }
        }
        command.set(2, script.toString());
        Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(2, TimeUnit.MINUTES), "the tool did not finish in 2 minutes");
        assertTrue(process.exitValue() == 0, "the tool exited " + process.exitValue() + ": " + out);
        String[] parts = out.split("@@\n", -1);
        assertTrue(parts.length == calls.length + 1, "one answer per call: " + out);
        return java.util.Arrays.copyOfRange(parts, 1, parts.length);
    }
}
