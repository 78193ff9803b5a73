package io.pinion.graph;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import io.pinion.failure.NotFound;
import io.pinion.id.PinionId;
import io.pinion.store.JsonBlobs;
import io.pinion.store.ObjectStore;
import io.pinion.store.ObjectTable;
import io.pinion.topology.TopologyChanged;
import io.pinion.zookeeper.CachesDropped;
import io.smallrye.mutiny.Uni;

/**
 * What the graph needs to know from MySQL: that a user exists and who owns a board. Both facts never change, so
 * they are cached in memory after the first lookup; graph reads then cost no MySQL round trip. Both caches are
 * emptied when the data under them may have changed: a new topology version (a shard moved, a master promoted) or a
 * cluster-wide drop of the caches (after {@code bin/restore}).
 */
@ApplicationScoped
public class GraphTargets {

    private final ObjectStore objects;
    private final JsonBlobs json;
    private final KnownIds knownUsers;
    private final IdCache boardOwners;

    GraphTargets(ObjectStore objects, JsonBlobs json, GraphConfig config) {
        this.objects = objects;
        this.json = json;
        this.knownUsers = new KnownIds(config.knownUsersCacheSize());
        this.boardOwners = new IdCache(config.boardOwnersCacheSize());
    }

    void onTopologyChange(@Observes TopologyChanged change) {
        forget();
    }

    void onCachesDropped(@Observes CachesDropped drop) {
        forget();
    }

    private void forget() {
        knownUsers.clear();
        boardOwners.clear();
    }

    /** Whether the user is known to be active without a read (a {@link #requireUser} of it would not read). */
    public boolean knownUser(PinionId user) {
        return knownUsers.contains(user.value());
    }

    /** Completes when the user exists; 404 {@code user_not_found} otherwise. */
    public Uni<Void> requireUser(PinionId user) {
        if (knownUsers.contains(user.value())) {
            return Uni.createFrom().voidItem();
        }
        return objects.get(ObjectTable.USERS, user).map(stored -> {
            if (stored == null || !json.read(stored, TargetRow.class).active()) {
                throw new NotFound("user_not_found", "no user " + user);
            }
            knownUsers.add(user.value());
            return null;
        });
    }

    /** The owner of an active board, read from MySQL (writes must not act on a deleted board); 404 otherwise. */
    public Uni<Long> ownerOfActive(PinionId board) {
        return objects.get(ObjectTable.BOARDS, board).map(stored -> {
            TargetRow data = stored == null ? null : json.read(stored, TargetRow.class);
            if (data == null || !data.active()) {
                throw new NotFound("board_not_found", "no board " + board);
            }
            return remember(board, data);
        });
    }

    /** The owner of a board, from the cache or MySQL; 404 {@code board_not_found} when there is no such board. */
    public Uni<Long> ownerOf(PinionId board) {
        Long cached = boardOwners.get(board.value());
        return cached != null ? Uni.createFrom().item(cached) : ownerOfActive(board);
    }

    /** Owners of the boards that exist (missing boards are left out); one MySQL query per shard for cache misses. */
    public Uni<Map<PinionId, Long>> ownersOf(List<PinionId> ids) {
        Map<PinionId, Long> owners = new HashMap<>();
        List<PinionId> missing = new ArrayList<>();
        for (PinionId id : ids) {
            Long cached = boardOwners.get(id.value());
            if (cached != null) {
                owners.put(id, cached);
            } else {
                missing.add(id);
            }
        }
        if (missing.isEmpty()) {
            return Uni.createFrom().item(owners);
        }
        return objects.getAll(ObjectTable.BOARDS, missing).map(found -> {
            found.forEach(stored -> {
                TargetRow data = json.read(stored, TargetRow.class);
                if (data.active()) {
                    owners.put(stored.id(), remember(stored.id(), data));
                }
            });
            return owners;
        });
    }

    private long remember(PinionId board, TargetRow data) {
        long owner = PinionId.parse(data.ownerId()).value();
        boardOwners.put(board.value(), owner);
        return owner;
    }
}
