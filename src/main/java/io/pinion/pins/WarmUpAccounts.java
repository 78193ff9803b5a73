package io.pinion.pins;

import java.security.SecureRandom;
import java.util.Base64;
import java.util.concurrent.atomic.AtomicReference;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.boards.BoardService;
import io.pinion.boards.CreateBoardRequest;
import io.pinion.failure.Conflict;
import io.pinion.id.PinionId;
import io.pinion.users.SignUpRequest;
import io.pinion.users.UserRepository;
import io.pinion.users.UserService;
import io.smallrye.mutiny.Uni;

/**
 * The warm-up's own two accounts, each with one board, on which {@link WriteWarmUp} makes its writes: created by the
 * first instance that starts on a stack, found by name after that. Their names have a {@code -}, which no sign-up
 * through the API can take ({@code [a-z0-9_]{3,30}}), so no user can own one; their passwords are random and kept
 * nowhere, so nobody signs in as them. Two instances that start at once may both sign up: the name is claimed once,
 * and the loser finds the winner's account; each may make a board, and both use the newest.
 *
 * <p>Thread contract: {@link #get()} may be called from any event loop at once; the accounts found are kept, a
 * failure is not (the next call tries again).
 */
@ApplicationScoped
public class WarmUpAccounts {

    /** The account that follows, likes and saves. */
    static final String FOLLOWER = "pinion-warm-up-follower";
    /** The account that is followed and pins. */
    static final String AUTHOR = "pinion-warm-up-author";
    private static final String BOARD = "warm-up";

    /** One account and its board. */
    record Account(PinionId user, PinionId board) {
    }

    /** Both accounts. */
    record Accounts(Account follower, Account author) {
    }

    private final UserRepository users;
    private final UserService signUps;
    private final BoardService boards;
    private final SecureRandom random = new SecureRandom();
    private final AtomicReference<Accounts> found = new AtomicReference<>();

    WarmUpAccounts(UserRepository users, UserService signUps, BoardService boards) {
        this.users = users;
        this.signUps = signUps;
        this.boards = boards;
    }

    /** Both accounts, made the first time. */
    Uni<Accounts> get() {
        Accounts known = found.get();
        if (known != null) {
            return Uni.createFrom().item(known);
        }
        return account(FOLLOWER).chain(follower -> account(AUTHOR).map(author -> new Accounts(follower, author)))
                .invoke(found::set);
    }

    private Uni<Account> account(String name) {
        return user(name).chain(user -> boards.listForUser(user, null, 1)
                .chain(page -> page.items().isEmpty()
                        ? boards.create(user, new CreateBoardRequest(BOARD, null))
                        : Uni.createFrom().item(page.items().get(0)))
                .map(board -> new Account(user, PinionId.parse(board.id()))));
    }

    private Uni<PinionId> user(String name) {
        return users.findIdByUsername(name).chain(id -> id != null ? Uni.createFrom().item(id)
                : signUps.signUp(new SignUpRequest(name, password(), "warm-up"))
                        .map(view -> PinionId.parse(view.id()))
                        .onFailure(Conflict.class).recoverWithUni(() -> users.findIdByUsername(name)));
    }

    private String password() {
        byte[] bytes = new byte[24];
        random.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
