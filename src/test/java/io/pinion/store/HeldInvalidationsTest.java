package io.pinion.store;

import static io.pinion.TestApi.createBoard;
import static io.pinion.TestApi.createPin;
import static io.pinion.TestApi.newUser;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.function.BooleanSupplier;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.pinion.TestApi.TestUser;
import io.pinion.Wait;
import io.pinion.failure.EventLoopLag;
import io.pinion.redis.RedisClients;
import io.pinion.stack.StackTest;
import io.pinion.topology.ActiveTopology;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.core.Vertx;

/**
 * Invalidations an instance could not publish are held and published once its channel delivers, also when the
 * instance's own cache is off ({@code pinion.cache.enabled=false}): the other instances' caches still hold the
 * objects it changed. A second channel with its cache off runs beside the test instance, on the same Redis.
 */
@QuarkusTest
@StackTest
class HeldInvalidationsTest {

    @Inject
    ObjectCache cache;
    @Inject
    CacheConfig config;
    @Inject
    RedisClients redis;
    @Inject
    ActiveTopology topology;
    @Inject
    Vertx vertx;
    @Inject
    EventLoopLag lag;

    @Test
    void anInstanceWithItsCacheOffPublishesWhatItHeldOnceItsChannelDelivers() throws InterruptedException {
        eventually(cache::usable, 10_000);
        TestUser author = newUser();
        String pin = createPin(author, createBoard(author, "held"), "cached here, changed there");
        given().get("/v1/pins/" + pin).then().statusCode(200);
        long id = Long.parseLong(pin);
        assertNotNull(cache.get(id), "the pin is cached on this instance");

        CacheConfig off = (CacheConfig) Proxy.newProxyInstance(CacheConfig.class.getClassLoader(),
                new Class<?>[] { CacheConfig.class }, (proxy, method, args) -> {
                    if (method.getName().equals("enabled")) {
                        return false;
                    }
                    try {
                        return method.invoke(config, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        ObjectCache offCache = new ObjectCache(off, new SimpleMeterRegistry());
        CacheChannel other = new CacheChannel(offCache, off, redis, topology, vertx, new SimpleMeterRegistry(), lag);
        try {
            other.changed(List.of(id)); // its channel is not open yet: held
            other.onStart(new StartupEvent());
            eventually(() -> cache.get(id) == null, 10_000);
        } finally {
            other.stop();
        }
    }

    private static void eventually(BooleanSupplier condition, long withinMs) throws InterruptedException {
        Wait.within(withinMs, condition);
    }
}
