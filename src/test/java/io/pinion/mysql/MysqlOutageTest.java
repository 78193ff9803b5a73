package io.pinion.mysql;

import static io.pinion.TestApi.createBoard;
import static io.pinion.TestApi.createPin;
import static io.pinion.TestApi.newUser;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import io.pinion.TestApi.TestUser;
import io.pinion.TestApi;
import io.pinion.Wait;
import io.pinion.stack.LocalStack;
import io.pinion.stack.StackTest;
import io.quarkus.test.junit.QuarkusTest;

/**
 * With mysql-2 hung (SIGSTOP), requests on its shards (32-63) fail fast with 503 while shards 0-31 keep
 * working; once it resumes, everything works again without restarting the service.
 */
@QuarkusTest
@StackTest
@Tag("fault")
class MysqlOutageTest {

    @Test
    void aHungHostFailsOnlyItsShardsWith503AndRecovers() throws InterruptedException {
        TestUser onFirst = userOnHost(true);
        TestUser onSecond = userOnHost(false);
        String pinOnFirst = createPin(onFirst, createBoard(onFirst, "first"), "on mysql-1");
        String boardOnSecond = createBoard(onSecond, "second");
        String pinOnSecond = createPin(onSecond, boardOnSecond, "on mysql-2");

        LocalStack.run("pause", "mysql-2");
        try {
            long start = System.nanoTime();
            given().get("/v1/pins/" + pinOnSecond).then().statusCode(503)
                    .body("error", equalTo("backend_unavailable"))
                    .body("message", org.hamcrest.Matchers.containsString("mysql host for shard"));
            long tookMs = (System.nanoTime() - start) / 1_000_000;
            assertTrue(tookMs < 2000, "503 within 2 s, took " + tookMs + " ms");
            onSecond.as().body(java.util.Map.of("boardId", boardOnSecond, "imageUrl", "https://img.example.com/x.jpg"))
                    .post("/v1/pins").then().statusCode(503);

            given().get("/v1/pins/" + pinOnFirst).then().statusCode(200);
            createPin(onFirst, createBoard(onFirst, "still writable"), "written during the outage");
        } finally {
            LocalStack.run("resume", "mysql-2");
        }
        // the host's breaker, opened by the timeouts, lets a trial through within pinion.breaker.open-for (1 s)
        Wait.within(5_000, () -> given().get("/v1/pins/" + pinOnSecond).statusCode() == 200,
                "the pin reads again after the resume");
        createPin(onSecond, boardOnSecond, "after recovery");
        given().get("/v1/boards/" + boardOnSecond).then().statusCode(200).body("counts.pins", equalTo(2));
    }

    /** A new user whose shard is on mysql-1 (shards 0-31) or mysql-2 (32-63). */
    private static TestUser userOnHost(boolean first) {
        while (true) {
            TestUser user = newUser();
            if ((TestApi.shardOf(user.id()) < 32) == first) {
                return user;
            }
        }
    }
}
