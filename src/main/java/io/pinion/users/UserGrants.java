package io.pinion.users;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.auth.QueueGrants;
import io.pinion.auth.Roles;
import io.pinion.failure.InvalidInput;
import io.pinion.failure.NotFound;
import io.pinion.id.PinionId;
import io.pinion.mysql.ShardSql;
import io.pinion.store.JsonBlobs;
import io.pinion.store.ObjectStore;
import io.pinion.store.ObjectTable;
import io.smallrye.mutiny.Uni;

/**
 * Roles and queue grants, stored in the user's row: granted and revoked in one transaction on the user's shard
 * (row lock, read, write). Reads go through a per-instance cache of {@link #CACHE_MS}, so a revoked grant stops
 * working on every instance within that time — the same time a verified token is reused for
 * ({@code CachingJwtParser}).
 */
@ApplicationScoped
public class UserGrants implements QueueGrants {

    /** How long a user's grants are reused before they are read again. */
    static final long CACHE_MS = 60_000;
    static final int CACHE_ENTRIES = 10_000;
    /** Roles that can be granted. */
    public static final List<String> GRANTABLE = List.of(Roles.ADMIN, Roles.WORKER);

    private record Cached(Grants grants, long until) {
    }

    private final ShardSql sql;
    private final ObjectStore objects;
    private final JsonBlobs json;
    private final Map<PinionId, Cached> cache = new ConcurrentHashMap<>();

    UserGrants(ShardSql sql, ObjectStore objects, JsonBlobs json) {
        this.sql = sql;
        this.objects = objects;
        this.json = json;
    }

    /** The user's grants as stored at most {@link #CACHE_MS} ago; none for an unknown or deleted user. */
    public Uni<Grants> of(PinionId user) {
        long now = System.currentTimeMillis();
        Cached cached = cache.get(user);
        if (cached != null && cached.until() > now) {
            return Uni.createFrom().item(cached.grants());
        }
        return objects.get(ObjectTable.USERS, user).map(stored -> {
            Grants grants = Grants.NONE;
            if (stored != null) {
                UserData data = json.read(stored, UserData.class);
                grants = data.active() ? new Grants(data.grantedRoles(), data.grantedQueues()) : Grants.NONE;
            }
            remember(user, grants, now);
            return grants;
        });
    }

    @Override
    public Uni<Collection<String>> queues(PinionId user) {
        return of(user).map(Grants::queues);
    }

    public Uni<Grants> grantRole(PinionId user, String role) {
        String checked = grantable(role);
        return change(user, grants -> added(grants.roles(), checked), Grants::queues);
    }

    public Uni<Grants> revokeRole(PinionId user, String role) {
        String checked = grantable(role);
        return change(user, grants -> removed(grants.roles(), checked), Grants::queues);
    }

    public Uni<Grants> grantQueue(PinionId user, String queue) {
        return change(user, Grants::roles, grants -> added(grants.queues(), queue));
    }

    public Uni<Grants> revokeQueue(PinionId user, String queue) {
        return change(user, Grants::roles, grants -> removed(grants.queues(), queue));
    }

    private Uni<Grants> change(PinionId user, java.util.function.Function<Grants, List<String>> roles,
            java.util.function.Function<Grants, List<String>> queues) {
        return sql.inTransaction(user.shard(), tx -> objects.lock(tx, user, ObjectTable.USERS)
                .map(blob -> blob == null ? null : json.read(blob, UserData.class))
                .chain(data -> {
                    if (data == null || !data.active()) {
                        throw new NotFound("user_not_found", "no user " + user);
                    }
                    Grants before = new Grants(data.grantedRoles(), data.grantedQueues());
                    Grants after = new Grants(roles.apply(before), queues.apply(before));
                    UserData changed = data.withGrants(after.roles(), after.queues());
                    return objects.update(tx, user, ObjectTable.USERS, json.write(changed)).replaceWith(after);
                }))
                .invoke(after -> remember(user, after, System.currentTimeMillis()));
    }

    private void remember(PinionId user, Grants grants, long now) {
        if (cache.size() >= CACHE_ENTRIES) {
            cache.values().removeIf(entry -> entry.until() <= now);
            if (cache.size() >= CACHE_ENTRIES) {
                cache.clear();
            }
        }
        cache.put(user, new Cached(grants, now + CACHE_MS));
    }

    private static String grantable(String role) {
        if (!GRANTABLE.contains(role)) {
            throw new InvalidInput("invalid_role", "role must be one of " + GRANTABLE);
        }
        return role;
    }

    private static List<String> added(List<String> list, String value) {
        if (list.contains(value)) {
            return list;
        }
        List<String> more = new ArrayList<>(list);
        more.add(value);
        return List.copyOf(more);
    }

    private static List<String> removed(List<String> list, String value) {
        return list.stream().filter(item -> !item.equals(value)).toList();
    }
}
