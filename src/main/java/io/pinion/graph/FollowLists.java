package io.pinion.graph;

import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.paging.Cursors;
import io.pinion.paging.Limits;
import io.pinion.paging.Page;
import io.pinion.paging.Position;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Response;

/**
 * Paged lists, newest first. Scores are unique within a set (a new member always scores above the set's top), so a
 * cursor is the last score shown and a page costs O(log n + limit).
 */
@ApplicationScoped
public class FollowLists {

    public static final int MAX_RECEIVERS_PAGE = Limits.RECEIVERS.max();

    private final VirtualShards shards;
    private final GraphRedis redis;
    private final Cursors cursors;
    private final GraphConfig config;

    FollowLists(VirtualShards shards, GraphRedis redis, Cursors cursors, GraphConfig config) {
        this.shards = shards;
        this.redis = redis;
        this.cursors = cursors;
        this.config = config;
    }

    public Uni<Page<FollowItem>> ofUser(long user, UserList list, String cursor, int limit) {
        int vs = shards.ofUser(user);
        return page(vs, GraphKeys.user(vs, user, list.suffix()), "graph:" + list + ":" + user, null, cursor, limit);
    }

    public Uni<Page<FollowItem>> ofInterest(String interest, String cursor, int limit) {
        int vs = shards.ofInterest(interest);
        return page(vs, GraphKeys.interest(vs, interest), "graph:interest:" + interest, null, cursor, limit);
    }

    /** The board's own explicit followers. */
    public Uni<Page<FollowItem>> explicitOfBoard(long board, long owner, String cursor, int limit) {
        int vs = shards.ofUser(owner);
        return page(vs, GraphKeys.board(vs, board, GraphKeys.BOARD_FOLLOWERS), "graph:board-explicit:" + board, "board",
                cursor, limit);
    }

    /**
     * Everyone who receives the board's new pins: its explicit followers and its owner's explicit followers who did
     * not unfollow it, newest first. Pages of up to {@link #MAX_RECEIVERS_PAGE} serve the fan-out. A page may hold
     * fewer than {@code limit} entries when many of the owner's followers unfollowed the board; only a null cursor
     * ends the list.
     */
    public Uni<Page<FollowItem>> ofBoard(long board, long owner, String cursor, int limit) {
        String name = "graph:board:" + board;
        Position position = cursors.decode(name, cursor);
        int vs = shards.ofUser(owner);
        List<String> keys = List.of(
                GraphKeys.user(vs, owner, GraphKeys.FOLLOWERS),
                GraphKeys.board(vs, board, GraphKeys.BOARD_FOLLOWERS),
                GraphKeys.board(vs, board, GraphKeys.BOARD_UNFOLLOWERS));
        List<String> args = List.of(Integer.toString(Math.min(limit, MAX_RECEIVERS_PAGE)),
                position == null ? "" : Long.toString(position.sequence()),
                position == null ? "0" : Long.toString(position.toId()),
                Integer.toString(config.scanBudget()));
        return redis.script(vs, GraphScript.BOARD_FOLLOWERS, keys, args, false).map(answer -> {
            List<FollowItem> items = new ArrayList<>();
            for (int i = 3; i + 2 < answer.size(); i += 3) {
                items.add(FollowItem.of(answer.get(i).toString(), micros(answer.get(i + 1)),
                        answer.get(i + 2).toInteger() == 1 ? "board" : "owner"));
            }
            String next = answer.get(0).toInteger() == 0 ? null
                    : cursors.encode(name, new Position(micros(answer.get(1)), answer.get(2).toLong()));
            return new Page<>(items, next);
        });
    }

    private Uni<Page<FollowItem>> page(int vs, String key, String name, String via, String cursor, int limit) {
        Position position = cursors.decode(name, cursor);
        String max = position == null ? "+inf" : "(" + position.sequence();
        Request range = Request.cmd(Command.ZRANGE).arg(key).arg(max).arg("-inf").arg("BYSCORE").arg("REV")
                .arg("LIMIT").arg(0).arg(limit + 1).arg("WITHSCORES");
        return redis.send(vs, range).map(answer -> {
            List<FollowItem> items = new ArrayList<>();
            long last = 0;
            for (int i = 0; i + 1 < answer.size() && items.size() < limit; i += 2) {
                last = micros(answer.get(i + 1));
                items.add(FollowItem.of(answer.get(i).toString(), last, via));
            }
            boolean more = answer.size() / 2 > limit;
            return new Page<>(items, more ? cursors.encode(name, new Position(last, 0)) : null);
        });
    }

    private static long micros(Response score) {
        return (long) Double.parseDouble(score.toString());
    }
}
