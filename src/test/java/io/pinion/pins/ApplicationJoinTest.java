package io.pinion.pins;

import static io.pinion.TestApi.createBoard;
import static io.pinion.TestApi.createPin;
import static io.pinion.TestApi.newUser;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.pinion.TestApi.TestUser;
import io.pinion.TestApi;
import io.pinion.stack.StackTest;
import io.pinion.topology.ActiveTopology;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;

/**
 * A page of ids that spans many shards is one mapping query plus one statement per MySQL host (the IN selects of
 * that host's shards together), run in parallel, with the list order restored.
 */
@QuarkusTest
@StackTest
class ApplicationJoinTest {

    @Inject
    ActiveTopology topology;

    @Test
    void aFiftyPinPageOverTenShardsCostsOneMappingQueryAndOneObjectQueryPerHost() {
        Map<Integer, TestUser> authorsByShard = new LinkedHashMap<>();
        while (authorsByShard.size() < 10) {
            TestUser user = newUser();
            authorsByShard.putIfAbsent(TestApi.shardOf(user.id()), user);
        }
        TestUser liker = newUser();
        List<String> likedInOrder = new ArrayList<>();
        for (TestUser author : authorsByShard.values()) {
            String board = createBoard(author, "board");
            for (int i = 0; i < 5; i++) {
                String pin = createPin(author, board, "pin " + i);
                liker.as().put("/v1/pins/" + pin + "/like").then().statusCode(200);
                likedInOrder.add(pin);
            }
        }
        Collections.reverse(likedInOrder);

        Response page = given().queryParam("limit", 50).get("/v1/users/" + liker.id() + "/likes");

        page.then().statusCode(200);
        List<String> ids = page.jsonPath().getList("items.id");
        assertEquals(likedInOrder, ids, "most recent like first");
        Set<Integer> shards = new HashSet<>();
        ids.forEach(id -> shards.add(TestApi.shardOf(id)));
        assertEquals(10, shards.size());
        Set<String> hosts = new HashSet<>();
        shards.forEach(shard -> hosts.add(topology.get().mysql().hostOf(shard).orElseThrow().name()));
        int queries = Integer.parseInt(page.header("X-Mysql-Queries"));
        assertTrue(queries <= 1 + hosts.size(), "1 mapping query + one object query per host (" + hosts + "), was "
                + queries);
    }
}
