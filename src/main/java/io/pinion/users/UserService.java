package io.pinion.users;

import java.time.Instant;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.auth.AuthConfig;
import io.pinion.auth.TokenIssuer;
import io.pinion.id.PinionId;
import io.pinion.mysql.ShardSql;
import io.pinion.store.JsonBlobs;
import io.pinion.store.ObjectStore;
import io.pinion.store.ObjectTable;
import io.pinion.store.StoredObject;
import io.pinion.topology.ActiveTopology;
import io.pinion.topology.ShardRange;
import io.pinion.web.ApiException;
import io.pinion.web.ConflictException;
import io.quarkus.elytron.security.common.BcryptUtil;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;

/**
 * Sign-up, login and profiles. A new user goes to a random shard of the open range; the name is made unique
 * across all shards by the lookup row on the shard the name hashes to. Password hashing (bcrypt) and token
 * signing run on worker threads, never on the event loop.
 */
@ApplicationScoped
public class UserService {

    /** Counter names kept for users. */
    public static final String BOARDS = "boards";
    public static final String PINS = "pins";
    public static final String LIKES = "likes";

    private final ShardSql sql;
    private final ObjectStore objects;
    private final UserRepository users;
    private final JsonBlobs json;
    private final TokenIssuer tokens;
    private final ActiveTopology topology;
    private final AuthConfig auth;

    UserService(ShardSql sql, ObjectStore objects, UserRepository users, JsonBlobs json, TokenIssuer tokens,
            ActiveTopology topology, AuthConfig auth) {
        this.auth = auth;
        this.sql = sql;
        this.objects = objects;
        this.users = users;
        this.json = json;
        this.tokens = tokens;
        this.topology = topology;
    }

    public Uni<UserView> signUp(SignUpRequest request) {
        int shard = pickOpenShard();
        String displayName = request.displayName() == null || request.displayName().isBlank()
                ? request.username() : request.displayName().strip();
        return offloaded(() -> BcryptUtil.bcryptHash(request.password(), auth.bcryptCost()))
                .map(hash -> new UserData(request.username(), displayName, hash, Instant.now(), true))
                .flatMap(data -> sql.inTransaction(shard, tx -> objects.insert(tx, shard, ObjectTable.USERS, json.write(data)))
                        .flatMap(id -> users.claimUsername(request.username(), id)
                                .flatMap(claimed -> claimed
                                        ? Uni.createFrom().item(view(id, data, null))
                                        : users.deleteUnclaimed(id).map(ignored -> {
                                            throw new ConflictException("username_taken",
                                                    "the username '" + request.username() + "' is taken");
                                        }))));
    }

    public Uni<Session> login(LoginRequest request) {
        ApiException rejected = new ApiException(401, "invalid_credentials", "unknown username or wrong password");
        return users.findIdByUsername(request.username())
                .onItem().ifNull().failWith(rejected)
                .flatMap(id -> objects.get(ObjectTable.USERS, id)
                        .onItem().ifNull().failWith(rejected)
                        .map(stored -> json.read(stored.data(), UserData.class))
                        .flatMap(data -> offloaded(() -> {
                            if (!data.active() || !BcryptUtil.matches(request.password(), data.passwordHash())) {
                                throw rejected;
                            }
                            return new Session(tokens.issue(id, data.username()), id.toString());
                        })));
    }

    /** The active user with its counts, or null. */
    public Uni<UserView> get(PinionId id) {
        return objects.get(ObjectTable.USERS, id)
                .map(stored -> stored == null ? null : viewIfActive(stored));
    }

    /** The view of a stored user, or null when deleted. */
    public UserView viewOf(StoredObject stored) {
        return stored == null ? null : viewIfActive(stored);
    }

    private UserView viewIfActive(StoredObject stored) {
        UserData data = json.read(stored.data(), UserData.class);
        return data.active() ? view(stored.id(), data, stored) : null;
    }

    private static UserView view(PinionId id, UserData data, StoredObject stored) {
        UserView.Counts counts = stored == null
                ? new UserView.Counts(0, 0, 0)
                : new UserView.Counts(stored.count(BOARDS), stored.count(PINS), stored.count(LIKES));
        return new UserView(id.toString(), data.username(), data.displayName(), data.createdAt(), counts);
    }

    private int pickOpenShard() {
        ShardRange open = topology.get().mysql().openShards();
        return open.from() + ThreadLocalRandom.current().nextInt(open.size());
    }

    private static <T> Uni<T> offloaded(Supplier<T> work) {
        return Uni.createFrom().item(work).runSubscriptionOn(Infrastructure.getDefaultWorkerPool());
    }
}
