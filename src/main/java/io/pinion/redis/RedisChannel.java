package io.pinion.redis;

import java.util.function.Consumer;
import java.util.function.Supplier;

import org.jboss.logging.Logger;

import io.smallrye.mutiny.Uni;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.RedisOptions;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import io.vertx.redis.client.ResponseType;

/**
 * A Redis pub/sub channel: one dedicated subscriber connection that reconnects by itself, and one dedicated
 * publisher connection, pipelined, opened on first use and again after it failed. Publishing on a connection of its
 * own keeps the channel's messages in the order they were published and out of the pooled client's wait queue: a
 * heartbeat that comes back proves every invalidation published before it was delivered, however long the queue of
 * the instance's other commands is. The listener is told when the subscription starts ({@code true}: from now on every
 * message published reaches it) and when it ends ({@code false}: messages may be missed until it starts again).
 * Messages and state changes arrive on the connection's event loop. Where the instance is, is looked up at every
 * (re)connection and publish, so a channel follows its instance when the topology moves it or Sentinel promotes
 * its replica ({@link #reconnect}).
 */
public final class RedisChannel {

    private static final Logger LOG = Logger.getLogger(RedisChannel.class);
    private static final long FIRST_RETRY_MS = 100;
    private static final long LAST_RETRY_MS = 2_000;

    private final Vertx vertx;
    private final String instance;
    private final String channel;
    private final Consumer<String> onMessage;
    private final Consumer<Boolean> onSubscribed;
    private final Supplier<RedisOptions> options;
    private Redis subscriber;
    private RedisConnection connection;
    private long retryMs = FIRST_RETRY_MS;
    private boolean subscribed;
    private boolean closed;
    private Redis publisherClient;
    private Future<RedisConnection> publishing;

    /**
     * @param options   the instance's options as they are now: with Sentinel, each (re)connection goes to the master
     *                  Sentinel names then
     */
    RedisChannel(Vertx vertx, String instance, Supplier<RedisOptions> options, String channel,
            Consumer<String> onMessage, Consumer<Boolean> onSubscribed) {
        this.vertx = vertx;
        this.instance = instance;
        this.options = options;
        this.channel = channel;
        this.onMessage = onMessage;
        this.onSubscribed = onSubscribed;
    }

    /** The instance the channel lives on. */
    public String instance() {
        return instance;
    }

    /** Publishes a message; emits how many subscribers received it. */
    public Uni<Integer> publish(String message) {
        return Uni.createFrom().deferred(() -> {
            Future<RedisConnection> connection = publisher();
            if (connection == null) {
                return Uni.createFrom().failure(new IllegalStateException("channel " + channel + " is closed"));
            }
            Future<Integer> sent = connection
                    .compose(opened -> opened.send(Request.cmd(Command.PUBLISH).arg(channel).arg(message)))
                    .map(reply -> reply == null ? 0 : reply.toInteger());
            return Uni.createFrom().completionStage(sent.toCompletionStage());
        });
    }

    /** The publisher connection, or its opening; {@code null} once closed. */
    private synchronized Future<RedisConnection> publisher() {
        if (closed) {
            return null;
        }
        if (publishing == null) {
            Redis client = Redis.createClient(vertx, new RedisOptions(options.get()).setMaxPoolSize(1));
            publisherClient = client;
            Future<RedisConnection> opening = client.connect();
            publishing = opening;
            opening.onSuccess(opened -> {
                opened.exceptionHandler(failure -> dropPublisher(opening));
                opened.endHandler(ignored -> dropPublisher(opening));
            }).onFailure(failure -> dropPublisher(opening));
        }
        return publishing;
    }

    /** Forgets the publisher connection {@code failed} (not one opened since), so the next publish opens another. */
    private void dropPublisher(Future<RedisConnection> failed) {
        Redis client;
        synchronized (this) {
            if (publishing != failed) {
                return;
            }
            client = publisherClient;
            publishing = null;
            publisherClient = null;
        }
        if (client != null) {
            client.close();
        }
    }

    synchronized void start() {
        if (closed) {
            return;
        }
        Redis client = Redis.createClient(vertx, new RedisOptions(options.get()).setMaxPoolSize(1));
        subscriber = client;
        client.connect()
                .compose(opened -> {
                    synchronized (this) {
                        if (subscriber != client) {
                            opened.close();
                            return Future.failedFuture("replaced");
                        }
                        connection = opened;
                    }
                    opened.handler(this::received);
                    opened.exceptionHandler(failure -> lost(client, "connection failed: " + failure.getMessage()));
                    opened.endHandler(ignored -> lost(client, "connection closed"));
                    return opened.send(Request.cmd(Command.SUBSCRIBE).arg(channel));
                })
                .onSuccess(reply -> started(client))
                .onFailure(failure -> lost(client, "subscribe failed: " + failure.getMessage()));
    }

    private void received(Response response) {
        if (response == null || (response.type() != ResponseType.MULTI && response.type() != ResponseType.PUSH)
                || response.size() < 3) {
            return;
        }
        String kind = response.get(0).toString();
        if ("message".equals(kind) && channel.equals(response.get(1).toString())) {
            onMessage.accept(response.get(2).toString());
        } else if ("subscribe".equals(kind)) {
            Redis client;
            synchronized (this) {
                client = subscriber;
            }
            started(client);
        }
    }

    private void started(Redis client) {
        synchronized (this) {
            if (subscribed || closed || client == null || subscriber != client) {
                return;
            }
            subscribed = true;
            retryMs = FIRST_RETRY_MS;
        }
        LOG.debugf("subscribed to %s on %s", channel, instance);
        onSubscribed.accept(true);
    }

    /** The subscriber {@code client} failed; a failure of a client already replaced is ignored. */
    private void lost(Redis client, String why) {
        boolean wasSubscribed;
        Redis old;
        long delay;
        synchronized (this) {
            if (subscriber == null || subscriber != client) {
                return;
            }
            wasSubscribed = subscribed;
            subscribed = false;
            old = subscriber;
            subscriber = null;
            connection = null;
            delay = retryMs;
            retryMs = Math.min(LAST_RETRY_MS, retryMs * 2);
        }
        old.close();
        if (wasSubscribed) {
            LOG.warnf("subscription to %s on %s lost (%s); retrying", channel, instance, why);
        }
        onSubscribed.accept(false);
        if (!closed) {
            vertx.setTimer(delay, ignored -> start());
        }
    }

    /**
     * Drops the subscriber connection (the listener hears {@code false}) and subscribes again at once where the
     * instance is now: after its endpoint changed or Sentinel moved its master.
     */
    void reconnect() {
        Redis client;
        Future<RedisConnection> publisherNow;
        synchronized (this) {
            client = subscriber;
            publisherNow = publishing;
            retryMs = FIRST_RETRY_MS;
        }
        if (publisherNow != null) {
            dropPublisher(publisherNow);
        }
        if (client != null) {
            lost(client, "the instance moved");
        }
    }

    synchronized void close() {
        closed = true;
        subscribed = false;
        if (connection != null) {
            connection.close();
        }
        if (subscriber != null) {
            subscriber.close();
            subscriber = null;
        }
        if (publisherClient != null) {
            publisherClient.close();
            publisherClient = null;
            publishing = null;
        }
    }
}
