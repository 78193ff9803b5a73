package io.pinion.mysql;

import static io.pinion.TestApi.createBoard;
import static io.pinion.TestApi.createPin;
import static io.pinion.TestApi.newUser;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import io.pinion.TestApi.TestUser;
import io.pinion.TestApi;
import io.pinion.Wait;
import io.pinion.breaker.Breakers;
import io.pinion.failure.HostBusy;
import io.pinion.failure.Unavailable;
import io.pinion.id.ObjectType;
import io.pinion.id.PinionId;
import io.pinion.stack.LocalStack;
import io.pinion.stack.StackTest;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * One statement over the query timeout on a host that answers everything else does not take the host out: its
 * breaker stays closed and the host's other shards keep serving; statements past their deadline while the host
 * answers others are the service's overload, not evidence against the host. A host that answers nothing (paused) is
 * taken out after a few statements in a row time out, and its shards then fail fast.
 */
@QuarkusTest
@StackTest
@Tag("fault")
class SlowStatementTest {

    @Inject
    ShardSql sql;
    @Inject
    Breakers breakers;

    /**
     * A statement past its deadline on a host that answers other statements meanwhile waited behind them: the host is
     * busy, not hung. A 503 {@code overloaded} (the timeout its cause: its outcome is unknown), no evidence against
     * the host's breaker, however many there are.
     */
    @Test
    void statementsPastTheirDeadlineOnAHostAnsweringOthersAreOverloadNotAnOutage() throws InterruptedException {
        TestUser user = newUser();
        int shard = TestApi.shardOf(user.id());
        String host = shard < 32 ? "mysql-1" : "mysql-2";
        AtomicBoolean done = new AtomicBoolean();
        AtomicInteger answered = new AtomicInteger();
        Thread others = new Thread(() -> {
            while (!done.get()) {
                try {
                    sql.query(shard, "SELECT 1", Tuple.tuple()).await().atMost(Duration.ofSeconds(5));
                    answered.incrementAndGet();
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    return;
                } catch (RuntimeException e) {
                    // one pipelined behind a slow statement may time out itself; the next goes on
                }
            }
        });
        others.start();
        try {
            for (int i = 0; i < 4; i++) {
                Throwable slow = sql.query(shard, "SELECT SLEEP(2)", Tuple.tuple())
                        .onItem().<Throwable>transform(rows -> null)
                        .onFailure().recoverWithItem(failure -> failure).await().atMost(Duration.ofSeconds(10));
                assertInstanceOf(HostBusy.class, slow, "a busy host's slow statement is the service's overload");
                assertInstanceOf(TimeoutException.class, slow.getCause(), "its outcome is unknown: " + slow);
                assertFalse(breakers.forBackend(host).isOpen(), "no statement past its deadline opened the breaker");
            }
        } finally {
            done.set(true);
            others.join(10_000);
        }
        assertTrue(answered.get() > 10, "the host answered the other statements meanwhile: " + answered.get());
    }

    @Test
    void oneSlowStatementLeavesTheHostServingAHungHostIsTakenOut() throws InterruptedException {
        TestUser user = newUser();
        int shard = TestApi.shardOf(user.id());
        String host = shard < 32 ? "mysql-1" : "mysql-2";
        String pin = createPin(user, createBoard(user, "slow"), "on a host with one slow statement");

        Throwable slow = sql.query(shard, "SELECT SLEEP(3)", Tuple.tuple()).onItem().<Throwable>transform(rows -> null)
                .onFailure().recoverWithItem(failure -> failure).await().atMost(Duration.ofSeconds(10));
        // a 503: overloaded (HostBusy) when the host answered the service's other statements meanwhile
        assertInstanceOf(Unavailable.class, slow, "the slow statement itself is a 503");
        assertFalse(breakers.forBackend(host).isOpen(), "one slow statement does not open the host's breaker");
        given().get("/v1/pins/" + pin).then().statusCode(200);

        // an id no user has: misses are not cached, so every read must reach the host
        String other = "/v1/users/" + PinionId.of(shard, ObjectType.USER, 999_999_999L).value();
        LocalStack.run("pause", host);
        try {
            for (int i = 0; i < 3; i++) {
                given().get(other).then().statusCode(503);
            }
            assertTrue(breakers.forBackend(host).isOpen(), "statements in a row without an answer opened it");
            long start = System.nanoTime();
            given().get(other).then().statusCode(503);
            assertTrue((System.nanoTime() - start) / 1_000_000 < 500, "an open breaker answers at once");
        } finally {
            LocalStack.run("resume", host);
            // the breaker lets a trial through within pinion.breaker.open-for: the next test finds the host serving
            Wait.upTo(10_000, () -> given().get(other).statusCode() == 404);
        }
    }
}
