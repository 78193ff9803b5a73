package io.pinion.users;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.auth.AuthConfig;
import io.pinion.auth.TokenIssuer;
import io.pinion.failure.Conflict;
import io.pinion.failure.Failure;
import io.pinion.failure.InvalidInput;
import io.pinion.failure.Unauthenticated;
import io.pinion.id.PinionId;
import io.pinion.mysql.ShardSql;
import io.pinion.store.JsonBlobs;
import io.pinion.store.ObjectStore;
import io.pinion.store.ObjectTable;
import io.pinion.store.StoredObject;
import io.pinion.topology.ActiveTopology;
import io.pinion.topology.ShardRange;
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
    /** bcrypt reads at most 72 bytes of a password; longer ones are refused rather than silently cut. */
    public static final int MAX_PASSWORD_BYTES = 72;

    private volatile String dummyHash;

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
        if (request.password().getBytes(StandardCharsets.UTF_8).length > MAX_PASSWORD_BYTES) {
            throw new InvalidInput("password_too_long",
                    "a password has at most " + MAX_PASSWORD_BYTES + " bytes in UTF-8 (bcrypt reads no more)");
        }
        int shard = pickOpenShard();
        String displayName = request.displayName() == null || request.displayName().isBlank()
                ? request.username() : request.displayName().strip();
        return offloaded(() -> BcryptUtil.bcryptHash(request.password(), auth.bcryptCost()))
                .map(hash -> new UserData(request.username(), displayName, hash, Instant.now(), true))
                .flatMap(data -> sql.inTransaction(
                                shard, tx -> objects.insert(tx, shard, ObjectTable.USERS, json.write(data)))
                        .flatMap(id -> users.claimUsername(request.username(), id)
                                .flatMap(claimed -> claimed
                                        ? Uni.createFrom().item(view(id, data, null))
                                        : users.deleteUnclaimed(id).map(ignored -> {
                                            throw new Conflict(
                                                    "username_taken",
                                                    "the username '" + request.username() + "' is taken");
                                        }))));
    }

    /**
     * A token for the right username and password. An unknown username costs the same bcrypt check as a wrong
     * password (against a hash of the same cost), so the time of the answer does not tell which names exist.
     */
    public Uni<Session> login(LoginRequest request) {
        Failure rejected = new Unauthenticated("invalid_credentials", "unknown username or wrong password");
        return users.findIdByUsername(request.username())
                .flatMap(id -> id == null
                        ? Uni.createFrom().item(Found.NONE)
                        : objects.get(ObjectTable.USERS, id)
                                .map(stored ->
                                        new Found(id, stored == null ? null : json.read(stored, UserData.class))))
                .flatMap(found -> offloaded(() -> {
                    boolean known = found.data() != null && found.data().active();
                    boolean matches = BcryptUtil.matches(
                            request.password(), known ? found.data().passwordHash() : dummyHash());
                    if (!known || !matches) {
                        throw rejected;
                    }
                    return new Session(
                            tokens.issue(
                                    found.id(),
                                    found.data().username(),
                                    found.data().grantedRoles()),
                            found.id().toString());
                }));
    }

    /** A user looked up by name: both null when there is none. */
    private record Found(PinionId id, UserData data) {
        static final Found NONE = new Found(null, null);
    }

    /** A bcrypt hash of the configured cost that no password matches in practice, made once. */
    private String dummyHash() {
        String hash = dummyHash;
        if (hash == null) {
            hash = BcryptUtil.bcryptHash(UUID.randomUUID().toString(), auth.bcryptCost());
            dummyHash = hash;
        }
        return hash;
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
        UserData data = json.read(stored, UserData.class);
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
