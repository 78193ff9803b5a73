package io.pinion.users;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

import io.pinion.auth.AuthConfig;
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
 * (row lock, read, write). Reads go to MySQL itself, never to the object cache (whose entries live for minutes and
 * whose invalidations may be lost), and are reused by each instance for at most {@code pinion.auth.grants-reuse} (30
 * s): a revoke is in force on every instance within that time whatever becomes of the revoking process or of Redis.
 * When MySQL does not answer, a privileged request fails (503) rather than keep a role it may have lost.
 */
@ApplicationScoped
public class UserGrants implements QueueGrants {

    private static final Logger LOG = Logger.getLogger(UserGrants.class);

    /** Users whose grants are held (a few hundred bytes each). */
    static final int CACHE_ENTRIES = 100_000;
    /** Roles that can be granted. */
    public static final List<String> GRANTABLE = List.of(Roles.ADMIN, Roles.WORKER);

    private final ShardSql sql;
    private final ObjectStore objects;
    private final JsonBlobs json;
    private final Cache<PinionId, Grants> cache;

    UserGrants(ShardSql sql, ObjectStore objects, JsonBlobs json, AuthConfig config) {
        this.sql = sql;
        this.objects = objects;
        this.json = json;
        this.cache = Caffeine.newBuilder().maximumSize(CACHE_ENTRIES).expireAfterWrite(config.grantsReuse()).build();
    }

    /**
     * The user's grants as stored at most {@code pinion.auth.grants-reuse} (30 s) ago; none for an unknown or deleted
     * user.
     */
    public Uni<Grants> of(PinionId user) {
        Grants cached = cache.getIfPresent(user);
        if (cached != null) {
            return Uni.createFrom().item(cached);
        }
        return objects.getFresh(ObjectTable.USERS, user).map(stored -> {
            Grants grants = Grants.NONE;
            if (stored != null) {
                UserData data = json.read(stored, UserData.class);
                grants = data.active() ? new Grants(data.grantedRoles(), data.grantedQueues()) : Grants.NONE;
            }
            cache.put(user, grants);
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
                .invoke(after -> {
                    cache.put(user, after);
                    LOG.infof("grants of user %s are now roles %s, queues %s", user, after.roles(), after.queues());
                });
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
