package io.pinion.stack;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs the project's {@code bin/admin} from tests, as an operator on the machine would: the only way to make the
 * first admin of a packaged service.
 */
public final class Operator {

    private Operator() {
    }

    /** {@code bin/admin ARGS…}; fails with its output when it exits non-zero. */
    public static String admin(String... args) {
        Path root = LocalStack.repoRoot();
        List<String> command = new ArrayList<>(List.of("bash", root.resolve("bin/admin").toString()));
        command.addAll(List.of(args));
        try {
            Path output = Files.createTempFile("pinion-admin", ".log");
            Process process = new ProcessBuilder(command).directory(root.toFile()).redirectErrorStream(true)
                    .redirectOutput(output.toFile()).start();
            if (!process.waitFor(5, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new IllegalStateException("bin/admin did not finish in 5 minutes");
            }
            String text = Files.readString(output, StandardCharsets.UTF_8);
            Files.deleteIfExists(output);
            if (process.exitValue() != 0) {
                throw new IllegalStateException("bin/admin " + String.join(" ", args) + " exited " + process.exitValue() + ":\n" + text);
            }
            return text;
        } catch (IOException e) {
            throw new IllegalStateException("cannot run bin/admin", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running bin/admin", e);
        }
    }
}
