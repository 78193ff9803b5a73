package io.pinion.web;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class RequestGroupTest {

    @Test
    void pathsFallIntoTheirEndpointGroups() {
        assertEquals(RequestGroup.FEED, RequestGroup.of("/v1/me/home-feed"));
        assertEquals(RequestGroup.PINS, RequestGroup.of("/v1/pins/241294492511762325"));
        assertEquals(RequestGroup.PINS, RequestGroup.of("/v1/pins/241294492511762325/likers"));
        assertEquals(RequestGroup.BOARDS, RequestGroup.of("/v1/boards/42/pins"));
        assertEquals(RequestGroup.USERS, RequestGroup.of("/v1/users"));
        assertEquals(RequestGroup.USERS, RequestGroup.of("/v1/users/42/boards"));
        assertEquals(RequestGroup.USERS, RequestGroup.of("/v1/sessions"));
        assertEquals(RequestGroup.USERS, RequestGroup.of("/v1/me"));
        assertEquals(RequestGroup.QUEUES, RequestGroup.of("/v1/queues/thumbnails/dequeue"));
        assertEquals(RequestGroup.QUEUES, RequestGroup.of("/v1/jobs/ack"));
        assertEquals(RequestGroup.ADMIN, RequestGroup.of("/v1/admin/overview"));
        assertEquals(RequestGroup.ADMIN, RequestGroup.of("/v1/admin/feed/standby-lag"));
    }

    @Test
    void followsAreTheGraphsWhateverResourceTheyHangOn() {
        assertEquals(RequestGroup.GRAPH, RequestGroup.of("/v1/me/following/users/42"));
        assertEquals(RequestGroup.GRAPH, RequestGroup.of("/v1/users/42/followers"));
        assertEquals(RequestGroup.GRAPH, RequestGroup.of("/v1/users/42/following/boards/7"));
        assertEquals(RequestGroup.GRAPH, RequestGroup.of("/v1/boards/7/followers"));
        assertEquals(RequestGroup.GRAPH, RequestGroup.of("/v1/boards/7/receivers"));
        assertEquals(RequestGroup.GRAPH, RequestGroup.of("/v1/interests/travel/followers"));
    }

    @Test
    void everythingOutsideTheApiIsOther() {
        assertEquals(RequestGroup.OTHER, RequestGroup.of("/q/metrics"));
        assertEquals(RequestGroup.OTHER, RequestGroup.of("/admin/"));
        assertEquals(RequestGroup.OTHER, RequestGroup.of("/v1/nothing-here"));
        assertEquals(RequestGroup.OTHER, RequestGroup.of("/v1"));
        assertEquals(RequestGroup.OTHER, RequestGroup.of(null));
    }
}
