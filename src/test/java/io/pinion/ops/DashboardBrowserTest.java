package io.pinion.ops;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.TimeoutException;
import org.openqa.selenium.WebElement;

import io.pinion.TestApi.TestUser;
import io.pinion.TestApi;
import io.pinion.Wait;
import io.pinion.auth.Roles;
import io.pinion.feed.funnel.FunnelFlusher;
import io.pinion.stack.StackTest;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The operator's dashboard at {@code /admin/} in a real browser ({@link DashboardBrowser}). Each test logs in through
 * the page's form, checks what an operator relies on against the API, finds no error in the browser's console, and
 * saves a screenshot of its view ({@code -Dpinion.screenshots.dir=docs/images} renews the documentation's).
 */
@QuarkusTest
@StackTest
class DashboardBrowserTest {

    private static final String ADMIN = "dashboard_admin";
    private static final String ADMIN_PASSWORD = "dashboard-password";

    private static DashboardBrowser browser;

    @Inject
    FunnelFlusher flusher;

    @BeforeAll
    static void startBrowser() {
        browser = DashboardBrowser.start();
    }

    @AfterAll
    static void stopBrowser() {
        if (browser != null) {
            browser.quit();
        }
    }

    @Test
    void anAdminSeesTheBackendsTheRequestsAndTheFeedFunnel() throws InterruptedException {
        TestUser admin = admin();
        TestUser author = TestApi.newUser();
        TestUser reader = TestApi.newUser();
        reader.as().put("/v1/me/following/users/" + author.id()).then().statusCode(200);
        String pin = TestApi.createPin(author, TestApi.createBoard(author, "Funnel"), "a pin through the funnel");
        readUntilShown(reader, pin);

        browser.openWithoutSession();
        browser.screenshot("login");
        browser.logIn(ADMIN, ADMIN_PASSWORD);

        List<String> backends = admin.as().get("/v1/admin/backends").then().statusCode(200)
                .extract().jsonPath().getList("items.name", String.class);
        browser.until(
                "every backend listed",
                page -> browser.texts("[data-testid=backend-row] td:first-child")
                        .equals(backends));
        browser.visible("standby-lag");
        List<String> hedges = admin.as().get("/v1/admin/overview").then().statusCode(200)
                .extract().jsonPath().getList("hedges.name", String.class);
        assertFalse(hedges.isEmpty(), "the home feed read above went through the materialized feed's hedged reader");
        browser.until(
                "every hedged reader shown",
                page -> browser.attributes("[data-testid=hedge]", "data-name").containsAll(hedges));
        browser.screenshot("backends");

        browser.click("[data-testid=tab-requests]");
        // the page itself asks the admin endpoints every 3 s: a rate shows from the second sample on
        browser.until("one row per endpoint group, and a request rate for the admin group", page -> {
            String rate = browser.text("[data-testid=request-row-admin] [data-testid=request-rate]");
            return browser.texts("[data-testid=requests-table] tbody tr").size() == 8
                    && !rate.isEmpty()
                    && !rate.equals("0");
        });
        browser.screenshot("requests");

        browser.click("[data-testid=tab-funnel]");
        List<String> stages = admin.as().get("/v1/admin/overview").then().extract().jsonPath()
                .getList("funnel.stage", String.class).stream().distinct().toList();
        assertFalse(stages.isEmpty(), "the funnel's series are registered when the service starts");
        browser.until("a bar per funnel stage, in the funnel's order",
                page -> browser.attributes("[data-testid=funnel-stage]", "data-stage").equals(stages));
        browser.until(
                "the series that counted the pin above",
                page -> browser.texts("[data-testid=funnel-row] td:first-child").contains("shown"));
        browser.screenshot("funnel");

        flusher.flush().await().atMost(Duration.ofSeconds(30));
        browser.type("entity-id", pin);
        browser.click("[data-testid=entity-submit]");
        List<String> counted = admin.as().queryParam("pin", pin).get("/v1/admin/feed/funnel").then().statusCode(200)
                .extract().jsonPath().getList("lines.stage", String.class);
        assertTrue(counted.containsAll(List.of("created", "pushed", "shown")), "the pin's own funnel: " + counted);
        browser.until("the pin's own funnel, a row per series it counted",
                page -> browser.attributes("[data-testid=entity-funnel-row]", "data-stage").equals(counted));
        browser.screenshot("entity-funnel");
        browser.assertNoConsoleErrors();
    }

    @Test
    void aUserWithoutTheAdminRoleSeesNoData() {
        given().get("/admin/").then().statusCode(200).contentType(containsString("text/html"))
                .body(containsString("<pinion-admin>"));
        given().redirects().follow(false).get("/admin").then().statusCode(302).header("Location", "/admin/");
        given().get("/v1/admin/overview").then().statusCode(401);
        String username = "dash_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
        TestUser user = TestApi.signUpAndLogin(username, "password-" + username);
        user.as().get("/v1/admin/overview").then().statusCode(403).body("error", equalTo("forbidden"));
        String own = TestApi.createPin(user, TestApi.createBoard(user, "Mine"), "a pin of my own");
        TestUser other = TestApi.newUser();
        String others = TestApi.createPin(other, TestApi.createBoard(other, "Theirs"), "someone else's pin");

        browser.openWithoutSession();
        browser.logIn(username, "password-" + username);
        browser.visible("not-admin");
        assertFalse(
                browser.has("nav, table, [data-testid=tab-backends]"),
                "no tabs and no data for a user without the admin role");
        browser.screenshot("not-admin");

        browser.type("reach-pin", own);
        browser.click("[data-testid=reach-submit]");
        browser.visible("reach-followers");
        assertTrue(browser.text("[data-testid=reach-shown]").equals("0"), "nobody follows this user: never shown");
        browser.type("reach-pin", others);
        browser.click("[data-testid=reach-submit]");
        browser.visible("reach-error");
        assertTrue(browser.text("[data-testid=reach-error] code").equals("not_pin_author"),
                "another's pin: " + browser.text("[data-testid=reach-error]"));
        assertFalse(browser.has("[data-testid=reach-followers]"), "nothing of another's pin shown");
        browser.screenshot("reach");

        browser.click("[data-testid=logout]");
        browser.visible("login-form");
        browser.assertNoConsoleErrors("/v1/me/pins/" + others + "/reach");
    }

    @Test
    void aQueuesDepthFollowsEnqueuesMadeThroughTheApi() {
        TestUser admin = admin();
        String queue = createQueue(admin, Map.of("partitions", 2));

        browser.openWithoutSession();
        browser.logIn(ADMIN, ADMIN_PASSWORD);
        browser.click("[data-testid=tab-queues]");
        browser.type("queue-filter", queue);
        String pending = "[data-testid=queue-row][data-name='" + queue + "'] [data-testid=queue-pending]";
        browser.until("the new queue listed with no pending job", page -> browser.text(pending).equals("0"));

        admin.as().body(Map.of("jobs", List.of(Map.of("body", "a"), Map.of("body", "b"), Map.of("body", "c"))))
                .post("/v1/queues/" + queue + "/jobs").then().statusCode(201);
        browser.until("three pending jobs after the enqueue", page -> browser.text(pending).equals("3"));
        browser.screenshot("queue-depth");
        browser.assertNoConsoleErrors();
        admin.as().delete("/v1/queues/" + queue).then().statusCode(204);
    }

    @Test
    void aFailedJobIsRetriedAndAnotherDeletedFromThePage() {
        TestUser admin = admin();
        String queue = createQueue(admin, Map.of("partitions", 1, "maxAttempts", 1));
        List<String> jobs = admin.as()
                .body(Map.of("jobs", List.of(Map.of("body", "retry me"), Map.of("body", "delete me"))))
                .post("/v1/queues/" + queue + "/jobs")
                .then()
                .statusCode(201)
                .extract()
                .jsonPath()
                .getList("items.id", String.class);
        failEveryJob(admin, queue, jobs);
        String retried = jobs.get(0);
        String deleted = jobs.get(1);

        browser.openWithoutSession();
        browser.logIn(ADMIN, ADMIN_PASSWORD);
        browser.go("queues/" + queue);
        browser.until(
                "both failed jobs listed",
                page -> browser.attributes("[data-testid=failed-job]", "data-id")
                        .equals(jobs));
        browser.screenshot("queues");

        browser.click("[data-testid=failed-job][data-id='" + retried + "'] [data-testid=retry-job]");
        browser.until("the retried job gone from the failed list",
                page -> browser.attributes("[data-testid=failed-job]", "data-id").equals(List.of(deleted)));
        // PENDING again, or already leased into this instance's broker buffer (the queue saw dequeues just now)
        admin.as().get("/v1/jobs/" + retried).then().statusCode(200).body("state", not(equalTo("FAILED")));

        browser.click("[data-testid=failed-job][data-id='" + deleted + "'] [data-testid=delete-job]");
        browser.confirm();
        browser.until(
                "the deleted job gone",
                page -> browser.attributes("[data-testid=failed-job]", "data-id")
                        .isEmpty());
        admin.as().get("/v1/jobs/" + deleted).then().statusCode(404);
        assertTrue(browser.text("[data-testid=queue-notice]").contains("deleted"), "the page says what it did");
        browser.assertNoConsoleErrors();
        admin.as().delete("/v1/queues/" + queue).then().statusCode(204);
    }

    @Test
    void anExplainFromTheFormShowsItsStages() {
        TestUser author = TestApi.newUser();
        TestUser reader = TestApi.newUser();
        reader.as().put("/v1/me/following/users/" + author.id()).then().statusCode(200);
        String pin = TestApi.createPin(author, TestApi.createBoard(author, "Explained"), "a pin to explain");
        admin();

        browser.openWithoutSession();
        browser.logIn(ADMIN, ADMIN_PASSWORD);
        browser.click("[data-testid=tab-explain]");
        explain("not-a-user", pin);
        browser.visible("explain-error");
        assertFalse(
                browser.text("[data-testid=explain-error] code").isBlank(), "the API's error code, with its message");

        explain(reader.id(), pin);
        WebElement verdict;
        try {
            verdict = browser.visible("explain-verdict");
        } catch (TimeoutException e) {
            throw new AssertionError(
                    "no explanation within " + DashboardBrowser.WAIT.toSeconds() + " s; the page shows: "
                            + browser.text("[data-testid=explain-error]"),
                    e);
        }
        assertTrue(
                List.of("shown", "pending", "dropped", "not_delivered")
                        .contains(verdict.getDomAttribute("data-verdict")),
                "a documented verdict: " + verdict.getDomAttribute("data-verdict"));
        assertTrue(browser.has("[data-testid=explain-stage]"), "the stages, one row each");
        assertFalse(browser.text("[data-testid=explain-summary]").isBlank(), "a summary");
        browser.screenshot("explain");
        browser.assertNoConsoleErrors("/v1/admin/feed/explain?user=not-a-user");
    }

    /** The test's admin, granted the role as bin/admin does; its password logs in through the page. */
    private static TestUser admin() {
        return TestApi.granted(ADMIN, ADMIN_PASSWORD, Roles.ADMIN);
    }

    private static String createQueue(TestUser admin, Map<String, Object> settings) {
        String name = "dash-" + UUID.randomUUID().toString().substring(0, 8);
        Map<String, Object> body = new HashMap<>(settings);
        body.put("name", name);
        admin.as().body(body).post("/v1/queues").then().statusCode(201);
        return name;
    }

    /** Leases the jobs (once this instance's broker owns the partition) and acks each a failure: its last attempt. */
    private static void failEveryJob(TestUser admin, String queue, List<String> jobs) {
        List<Map<String, Object>> acks = new ArrayList<>();
        long deadline = System.currentTimeMillis() + DashboardBrowser.WAIT.toMillis();
        while (acks.size() < jobs.size()) {
            assertTrue(
                    System.currentTimeMillis() < deadline,
                    "jobs of " + queue + " not handed out within " + DashboardBrowser.WAIT);
            var leased = admin.as().body(Map.of("max", jobs.size(), "waitMs", 2_000))
                    .post("/v1/queues/" + queue + "/dequeue").then().statusCode(200).extract().jsonPath();
            for (int i = 0; i < leased.getList("items").size(); i++) {
                acks.add(Map.of("id", leased.getString("items[" + i + "].id"),
                        "leaseToken", leased.getString("items[" + i + "].leaseToken"),
                        "outcome", "failure", "status", "failed on purpose by the dashboard test"));
            }
        }
        admin.as().body(Map.of("acks", acks)).post("/v1/jobs/ack").then().statusCode(200);
        for (String job : jobs) {
            admin.as().get("/v1/jobs/" + job).then().statusCode(200).body("state", equalTo("FAILED"));
        }
    }

    /**
     * Reads the reader's home feed until its first page shows the pin (pushed by a job): the funnel's stages from
     * created to shown, and hedged reads of the materialized feed.
     */
    private static void readUntilShown(TestUser reader, String pin) throws InterruptedException {
        // a read every 250 ms: each is a visit
        Wait.within(30_000, Duration.ofMillis(250), () -> reader.as().get("/v1/me/home-feed").then().statusCode(200)
                .extract().jsonPath().getList("items.pin.id", String.class).contains(pin),
                () -> "pin " + pin + " in the home feed");
    }

    private static void explain(String user, String pin) {
        browser.type("explain-user", user);
        browser.type("explain-pin", pin);
        browser.click("[data-testid=explain-submit]");
    }
}
