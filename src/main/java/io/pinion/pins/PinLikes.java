package io.pinion.pins;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.id.PinionId;
import io.pinion.mysql.ShardSql;
import io.pinion.store.CounterStore;
import io.pinion.store.MappingStore;
import io.pinion.store.MappingTable;
import io.pinion.store.ObjectStore;
import io.pinion.store.ObjectTable;
import io.pinion.store.Sequences;
import io.pinion.users.UserService;
import io.smallrye.mutiny.Uni;

/**
 * Likes are two mappings on two shards: {@code pin_liked_by_users} on the pin's shard and
 * {@code user_likes_pins} on the user's. Each side is idempotent and moves its counter only when its row
 * really changed, so counts stay exact; the pin side is written first (it carries the public like count), and a
 * request that fails between the two sides is repaired by repeating it.
 */
@ApplicationScoped
public class PinLikes {

    private final ShardSql sql;
    private final ObjectStore objects;
    private final MappingStore mappings;
    private final CounterStore counters;
    private final PinService pins;
    private final PinEvents events;

    PinLikes(ShardSql sql, ObjectStore objects, MappingStore mappings, CounterStore counters, PinService pins,
            PinEvents events) {
        this.sql = sql;
        this.objects = objects;
        this.mappings = mappings;
        this.counters = counters;
        this.pins = pins;
        this.events = events;
    }

    public Uni<LikeState> like(PinionId user, PinionId pin) {
        long sequence = Sequences.now();
        return pins.require(pin)
                .flatMap(data -> side(pin, MappingTable.PIN_LIKED_BY_USERS, user, PinViews.LIKES, sequence, true))
                .flatMap(ignored -> side(user, MappingTable.USER_LIKES_PINS, pin, UserService.LIKES, sequence, true))
                .call(ignored -> events.related(user, pin))
                .flatMap(ignored -> state(pin, true));
    }

    public Uni<LikeState> unlike(PinionId user, PinionId pin) {
        return side(pin, MappingTable.PIN_LIKED_BY_USERS, user, PinViews.LIKES, 0, false)
                .flatMap(ignored -> side(user, MappingTable.USER_LIKES_PINS, pin, UserService.LIKES, 0, false))
                .flatMap(ignored -> state(pin, false));
    }

    private Uni<Void> side(PinionId from, MappingTable table, PinionId to, String counter, long sequence, boolean add) {
        return sql.inTransaction(
                from.shard(),
                tx -> (add ? mappings.add(tx, table, from, to, sequence) : mappings.remove(tx, table, from, to))
                        .flatMap(changed -> changed
                                ? counters.add(tx, from, counter, add ? 1 : -1)
                                : Uni.createFrom().voidItem()));
    }

    private Uni<LikeState> state(PinionId pin, boolean liked) {
        return objects.get(ObjectTable.PINS, pin)
                .map(stored -> new LikeState(pin.toString(), liked, stored == null ? 0 : stored.count(PinViews.LIKES)));
    }
}
