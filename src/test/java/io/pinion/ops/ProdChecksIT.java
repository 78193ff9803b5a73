package io.pinion.ops;

import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.pinion.stack.LocalStack;

/**
 * The packaged service in its prod profile refuses to start without a cursor secret and a MySQL password, and says
 * which to set.
 */
class ProdChecksIT {

    @Test
    void thePackagedServiceRefusesToStartWithoutItsSecrets() throws Exception {
        Path root = LocalStack.repoRoot();
        Path jwt = root.resolve("src/test/resources/jwt");
        Path log = root.resolve("target/prod-checks-it.log");
        ProcessBuilder builder = new ProcessBuilder("java", "-Dquarkus.http.port=0",
                "-Dmp.jwt.verify.publickey.location=file:" + jwt.resolve("test-public.pem"),
                "-Dsmallrye.jwt.sign.key.location=file:" + jwt.resolve("test-private.pem"),
                "-Dpinion.queue.broker-enabled=false",
                "-jar", root.resolve("target/quarkus-app/quarkus-run.jar").toString())
                .directory(root.toFile()).redirectErrorStream(true).redirectOutput(new File(log.toString()));
        builder.environment().remove("PINION_CURSOR_SECRET");
        builder.environment().remove("PINION_MYSQL_PASSWORD");
        Process process = builder.start();
        boolean exited = process.waitFor(120, TimeUnit.SECONDS);
        if (!exited) {
            process.destroyForcibly().waitFor();
        }
        String output = Files.readString(log);
        assertTrue(exited, "the service did not stop: " + output);
        assertNotEquals(0, process.exitValue());
        assertTrue(output.contains("the prod profile refuses to start") && output.contains("PINION_CURSOR_SECRET")
                && output.contains("PINION_MYSQL_PASSWORD"), output);
    }
}
