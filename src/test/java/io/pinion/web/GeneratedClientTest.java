package io.pinion.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.DeserializationFeature;

import io.pinion.client.ApiClient;
import io.pinion.client.ApiException;
import io.pinion.client.ApiResponse;
import io.pinion.client.api.BoardsApi;
import io.pinion.client.api.FeedApi;
import io.pinion.client.api.FollowsApi;
import io.pinion.client.api.PinsApi;
import io.pinion.client.api.UsersApi;
import io.pinion.client.model.ApiError;
import io.pinion.client.model.Board;
import io.pinion.client.model.CreateBoardRequest;
import io.pinion.client.model.CreatePinRequest;
import io.pinion.client.model.FeedItem;
import io.pinion.client.model.FollowState;
import io.pinion.client.model.LoginRequest;
import io.pinion.client.model.PageFeedItem;
import io.pinion.client.model.PagePinView;
import io.pinion.client.model.Pin;
import io.pinion.client.model.Session;
import io.pinion.client.model.SignUpRequest;
import io.pinion.client.model.User;
import io.pinion.client.model.UserFollowCheck;
import io.pinion.stack.StackTest;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;

/**
 * The README's API tour, walked by a Java client that openapi-generator made at build time from the service's OpenAPI
 * document ({@value OpenApiSnapshot#FILE}, held to what {@code /q/openapi} serves by {@link OpenApiSnapshotTest}):
 * sign up, log in, create a board and a pin, read it, follow a user, read the home feed page by page, and an error in
 * the one shape. Nothing here speaks HTTP but the generated code; the token goes in through the client's request
 * interceptor, and the client's JSON mapper refuses fields the contract does not declare, so every answer read here is
 * one the contract describes completely.
 */
@QuarkusTest
@StackTest
class GeneratedClientTest {

    /** How long the home feed's fan-out may take (a feed job is retried with backoff, see feed.Eventually). */
    private static final Duration FAN_OUT = Duration.ofSeconds(60);

    private static final String PASSWORD = "correct horse battery";

    @Test
    void theApiTourThroughTheGeneratedClient() throws Exception {
        String tag = UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        UsersApi anonymous = new UsersApi(client(null));

        // sign up (201, no token needed) and log in: a bearer token for the user
        ApiResponse<User> signedUp = anonymous.signUpWithHttpInfo(
                new SignUpRequest().username("ada_" + tag).password(PASSWORD).displayName("Ada"));
        assertEquals(201, signedUp.getStatusCode());
        User ada = signedUp.getData();
        assertEquals("ada_" + tag, ada.getUsername());
        assertEquals("Ada", ada.getDisplayName());
        assertTrue(ada.getId().matches("[1-9][0-9]*"), "ids travel as decimal strings: " + ada.getId());
        assertNotNull(ada.getCreatedAt());
        assertEquals(0L, ada.getCounts().getBoards());
        assertEquals(0L, ada.getCounts().getPins());
        Session session = anonymous.logIn(new LoginRequest().username("ada_" + tag).password(PASSWORD));
        assertEquals(ada.getId(), session.getUserId());
        assertEquals(3, session.getToken().split("\\.").length, "a signed JWT: " + session.getToken());
        ApiClient asAda = client(session.getToken());
        assertEquals("ada_" + tag, new UsersApi(asAda).getMe().getUsername());

        // create a board (201, on the owner's shard) and a pin on it (201, on the board's shard)
        ApiResponse<Board> created = new BoardsApi(asAda).createBoardWithHttpInfo(
                new CreateBoardRequest().name("Lisbon").description("trams and tiles"));
        assertEquals(201, created.getStatusCode());
        Board board = created.getData();
        assertEquals("Lisbon", board.getName());
        assertEquals("trams and tiles", board.getDescription());
        assertEquals(ada.getId(), board.getOwnerId());
        assertEquals(0L, board.getCounts().getPins());
        PinsApi pins = new PinsApi(asAda);
        ApiResponse<Pin> pinned = pins.createPinWithHttpInfo(new CreatePinRequest().boardId(board.getId())
                .description("Tram 28").imageUrl("https://img.example.com/tram.jpg").interests(List.of("travel")));
        assertEquals(201, pinned.getStatusCode());
        Pin pin = pinned.getData();
        assertEquals(board.getId(), pin.getBoardId());
        assertEquals(ada.getId(), pin.getOwnerId());
        assertEquals("Tram 28", pin.getDescription());
        assertEquals("https://img.example.com/tram.jpg", pin.getImageUrl());
        assertEquals(List.of("travel"), pin.getInterests());
        assertNull(pin.getSavedFrom());

        // read it, by anyone (reads are public), and list the board's pins as the tour does (?limit=25)
        Pin read = new PinsApi(client(null)).getPin(pin.getId());
        assertEquals(pin.getId(), read.getId());
        assertEquals("Tram 28", read.getDescription());
        assertEquals(board.getId(), read.getBoardId());
        assertEquals(pin.getCreatedAt().toInstant(), read.getCreatedAt().toInstant());
        assertEquals(0L, read.getCounts().getLikes());
        assertEquals(0L, read.getCounts().getSaves());
        PagePinView boardPins = pins.listBoardPins(board.getId(), null, 25);
        assertEquals(List.of(pin.getId()), boardPins.getItems().stream().map(Pin::getId).toList());
        assertNull(boardPins.getNextCursor());
        assertEquals(1L, new BoardsApi(client(null)).getBoard(board.getId()).getCounts().getPins());
        User profile = new UsersApi(client(null)).getUser(ada.getId());
        assertEquals(1L, profile.getCounts().getBoards());
        assertEquals(1L, profile.getCounts().getPins());

        // follow a user (idempotent): Bob, who then pins three times
        User bob = anonymous.signUp(new SignUpRequest().username("bob_" + tag).password(PASSWORD).displayName("Bob"));
        ApiClient asBob = client(anonymous.logIn(
                new LoginRequest().username("bob_" + tag).password(PASSWORD)).getToken());
        FollowsApi follows = new FollowsApi(asAda);
        FollowState followed = follows.followUser(bob.getId());
        assertEquals(Boolean.TRUE, followed.getFollowing());
        assertEquals(Boolean.TRUE, followed.getChanged());
        FollowState again = follows.followUser(bob.getId());
        assertEquals(Boolean.TRUE, again.getFollowing());
        assertEquals(Boolean.FALSE, again.getChanged());
        UserFollowCheck check = new FollowsApi(client(null)).followsUser(ada.getId(), bob.getId());
        assertEquals(Boolean.TRUE, check.getFollowing());
        assertEquals(Boolean.FALSE, check.getImplicit());
        Board bobsBoard = new BoardsApi(asBob).createBoard(new CreateBoardRequest().name("Porto"));
        PinsApi bobsPins = new PinsApi(asBob);
        Set<String> bobs = Set.of(
                bobPin(bobsPins, bobsBoard, "Ribeira"), bobPin(bobsPins, bobsBoard, "Livraria Lello"),
                bobPin(bobsPins, bobsBoard, "Dom Luis I"));

        // the home feed: Bob's pins arrive through fan-out and are shown as new on a visit, then kept (materialized)
        // and shown again behind new pins on later visits; waited for until a visit finds them all kept
        FeedApi feed = new FeedApi(asAda);
        long deadline = System.nanoTime() + FAN_OUT.toNanos();
        PageFeedItem kept = feed.getHomeFeed(null, 25);
        while (!(ids(kept).containsAll(bobs) && kept.getItems().stream().noneMatch(FeedItem::getFresh))
                && System.nanoTime() < deadline) {
            Thread.sleep(250);
            kept = feed.getHomeFeed(null, 25);
        }
        assertEquals(bobs, Set.copyOf(ids(kept)), "Bob's pins in Ada's home feed within " + FAN_OUT);
        assertEquals(3, kept.getItems().size(), "each pin once");
        for (FeedItem item : kept.getItems()) {
            assertEquals("following", item.getSource());
            assertEquals(Boolean.FALSE, item.getFresh(), "shown on an earlier visit");
            assertEquals(bob.getId(), item.getPin().getOwnerId());
            assertEquals(bobsBoard.getId(), item.getPin().getBoardId());
        }
        // with limit and cursor: one pin a page, each once and in the feed's order, until a null nextCursor
        PageFeedItem first = feed.getHomeFeed(null, 1);
        assertEquals(List.of(ids(kept).get(0)), ids(first), "limit 1: the first kept pin, nothing new");
        assertNotNull(first.getNextCursor(), "more pages");
        List<String> walked = new ArrayList<>(ids(first));
        PageFeedItem next = first;
        for (int pages = 1; next.getNextCursor() != null && pages < 10; pages++) {
            next = feed.getHomeFeed(next.getNextCursor(), 1);
            assertTrue(next.getItems().size() <= 1, "limit 1: " + ids(next));
            walked.addAll(ids(next));
        }
        assertNull(next.getNextCursor(), "the walk ends");
        assertEquals(ids(kept), walked, "page by page: each pin once, in the feed's order");

        // an error, in the one shape: a board id where a pin id belongs is a 400, with the caller's request id
        ApiException wrongType = assertThrows(ApiException.class,
                () -> pins.getPin(board.getId(), Map.of("X-Request-Id", "tour-" + tag)));
        assertEquals(400, wrongType.getCode());
        ApiError error = asAda.getObjectMapper().readValue(wrongType.getResponseBody(), ApiError.class);
        assertEquals("wrong_id_type", error.getError());
        assertEquals("pin id '" + board.getId() + "' is a board id, not a pin id", error.getMessage());
        assertEquals("tour-" + tag, error.getRequestId());
        assertEquals("tour-" + tag, wrongType.getResponseHeaders().firstValue("X-Request-Id").orElse(null));

        // and without a token, a write is a 401 in the same shape, with a request id of the service's making
        ApiException noToken = assertThrows(ApiException.class,
                () -> new BoardsApi(client(null)).createBoard(new CreateBoardRequest().name("no token")));
        assertEquals(401, noToken.getCode());
        ApiError unauthorized = asAda.getObjectMapper().readValue(noToken.getResponseBody(), ApiError.class);
        assertEquals("unauthorized", unauthorized.getError());
        assertFalse(unauthorized.getMessage().isBlank());
        assertTrue(unauthorized.getRequestId().matches("[0-9a-f]{16}"), "a new id: " + unauthorized.getRequestId());
        assertEquals(unauthorized.getRequestId(), noToken.getResponseHeaders().firstValue("X-Request-Id").orElse(null));
    }

    private static String bobPin(PinsApi pins, Board board, String description) throws ApiException {
        return pins.createPin(new CreatePinRequest().boardId(board.getId()).description(description)
                .imageUrl("https://img.example.com/" + UUID.randomUUID() + ".jpg")).getId();
    }

    private static List<String> ids(PageFeedItem page) {
        return page.getItems().stream().map(item -> item.getPin().getId()).toList();
    }

    /**
     * A generated client for the instance under test: its base URL from the test port, the bearer token (when there
     * is one) added to every request by the client's request interceptor, and a JSON mapper that fails on any field
     * the contract does not declare.
     */
    private static ApiClient client(String token) {
        ApiClient client = new ApiClient(
                HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)),
                ApiClient.createDefaultObjectMapper().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES),
                "http://127.0.0.1:" + RestAssured.port);
        client.setReadTimeout(Duration.ofSeconds(30));
        if (token != null) {
            client.setRequestInterceptor(request -> request.header("Authorization", "Bearer " + token));
        }
        return client;
    }
}
