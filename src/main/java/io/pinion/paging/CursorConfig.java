package io.pinion.paging;

import java.util.Optional;

import io.smallrye.config.ConfigMapping;


/**
 * Signing of page cursors.
 */
@ConfigMapping(prefix = "pinion.cursor")
public interface CursorConfig {

    /** The secret used when none is set; the {@code prod} profile refuses to start with it. */
    String LOCAL_SECRET = "pinion-local-cursor-secret-change-me";

    /**
     * Secret for the HMACs that make cursors and lease tokens tamper-evident. Every instance of a deployment must
     * share it; set {@code PINION_CURSOR_SECRET} (at least 16 characters) in production.
     */
    Optional<String> secret();

    /** The secret in force: the configured one, else {@link #LOCAL_SECRET}. */
    default String secretInForce() {
        return secret().orElse(LOCAL_SECRET);
    }
}
