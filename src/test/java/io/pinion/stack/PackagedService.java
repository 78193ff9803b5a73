package io.pinion.stack;

import static io.restassured.RestAssured.given;

import java.io.File;
import java.io.IOException;
import java.net.ConnectException;
import java.net.Socket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The packaged service ({@code target/quarkus-app}) run as a process of its own on the local stack, with the tests'
 * JWT keys, as the integration tests that kill it need: {@link #start()} waits for readiness, {@link #kill()} is a
 * SIGKILL. Accounts are made through its API.
 */
public final class PackagedService {

    /**
     * Login limits far above what the integration tests use. Limits are counted for the cluster in the stack's Redis,
     * so every instance of every integration test (all logging in from 127.0.0.1, most as {@link Operator#ADMIN})
     * shares one budget per minute, and a test would be refused for what the test before it did. Login limits are
     * tested where they are the subject ({@code RateLimitTest}, {@code ClusterIT}).
     */
    public static final List<String> LOGIN_LIMITS = List.of("-Dpinion.rate-limit.logins-per-address-per-minute=6000",
            "-Dpinion.rate-limit.logins-per-user-and-address-per-minute=6000",
            "-Dpinion.rate-limit.logins-per-user-per-minute=6000");

    private final int port;
    private final String log;
    private final List<String> properties;
    private Process process;

    /**
     * On {@code port} (management on {@code port + 1}), output to {@code target/<log>}, with extra system properties.
     */
    public PackagedService(int port, String log, String... properties) {
        this.port = port;
        this.log = log;
        this.properties = List.of(properties);
    }

    public String base() {
        return "http://127.0.0.1:" + port;
    }

    /** Starts the service and waits up to 120 s until it is ready. */
    public void start() throws IOException, InterruptedException {
        try (Socket taken = new Socket("127.0.0.1", port)) {
            throw new IllegalStateException("port " + port + " is already in use");
        } catch (ConnectException free) {
            // nothing listens: start the service there
        }
        Path root = LocalStack.repoRoot();
        Path jwt = root.resolve("src/test/resources/jwt");
        List<String> command = new ArrayList<>(List.of("java", "-Dquarkus.http.port=" + port,
                "-Dquarkus.management.port=" + (port + 1),
                "-Dmp.jwt.verify.publickey.location=file:" + jwt.resolve("test-public.pem"),
                "-Dsmallrye.jwt.sign.key.location=file:" + jwt.resolve("test-private.pem"),
                "-Dpinion.cursor.secret=packaged-service-test-secret-0123456789", "-Dpinion.mysql.password=pinion",
                // the start-up warm-up (20 s of requests before ready) only delays these tests; a test may turn it on
                "-Dpinion.warm-up.enabled=false"));
        command.addAll(LOGIN_LIMITS);
        command.addAll(properties);
        command.addAll(List.of("-jar", root.resolve("target/quarkus-app/quarkus-run.jar").toString()));
        process = new ProcessBuilder(command).directory(root.toFile()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(new File(root.resolve("target").toFile(), log)))
                .start();
        long deadline = System.currentTimeMillis() + 120_000;
        while (System.currentTimeMillis() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("the service exited; see target/" + log);
            }
            try {
                if (given().get(base() + "/q/health/ready").statusCode() == 200) {
                    return;
                }
            } catch (Exception notYet) {
                // not listening yet
            }
            Thread.sleep(250);
        }
        kill();
        throw new IllegalStateException("the service was not ready within 120 s");
    }

    /** Starts the services side by side and waits until every one is ready (or fails with the first failure). */
    public static void startAll(List<PackagedService> services) throws Exception {
        java.util.concurrent.ExecutorService threads =
                java.util.concurrent.Executors.newFixedThreadPool(services.size());
        try {
            List<java.util.concurrent.Future<Object>> started = new ArrayList<>();
            for (PackagedService service : services) {
                started.add(threads.submit(() -> {
                    service.start();
                    return null;
                }));
            }
            for (java.util.concurrent.Future<Object> each : started) {
                try {
                    each.get();
                } catch (java.util.concurrent.ExecutionException e) {
                    throw e.getCause() instanceof Exception cause ? cause : e;
                }
            }
        } finally {
            threads.shutdownNow();
        }
    }

    /** The process id of the running service (its dequeue broker's id carries it: {@code host-pid-random}). */
    public long pid() {
        return process.pid();
    }

    /** SIGKILL, and waits until the process is gone. */
    public void kill() throws InterruptedException {
        if (process != null) {
            process.destroyForcibly().waitFor();
        }
    }

    /** Signs the user up (if new) and returns a session token. */
    public String token(String username) {
        return Operator.session(base(), username);
    }

    /**
     * A token of the tests' admin ({@link Operator#ADMIN}) on this service, granted with {@code bin/admin} if need be.
     */
    public String admin() {
        return Operator.grantedAdmin(base());
    }
}
