package io.pinion.graph;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The graph's Lua scripts (resources under {@code graph/}). Each is loaded into an instance once
 * ({@code SCRIPT LOAD}) and run by its SHA-1; an instance that restarted and forgot it gets it again.
 */
public enum GraphScript {
    FOLLOW_USER("follow_user.lua"),
    MIRROR_USER("mirror_user.lua"),
    FOLLOW_INTEREST("follow_interest.lua"),
    MIRROR_INTEREST("mirror_interest.lua"),
    BOARD_FOLLOWERS("board_followers.lua"),
    RECENT_PINS("recent_pins.lua"),
    FANOUT_RECEIVERS("fanout_receivers.lua");

    private final String source;
    private final String sha;

    GraphScript(String file) {
        try (InputStream in = GraphScript.class.getClassLoader().getResourceAsStream("graph/" + file)) {
            if (in == null) {
                throw new IllegalStateException("missing script graph/" + file);
            }
            source = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            sha = HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-1").digest(source.getBytes(StandardCharsets.UTF_8)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    public String source() {
        return source;
    }

    public String sha() {
        return sha;
    }
}
