package io.pinion.web;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * Signing of page cursors.
 */
@ConfigMapping(prefix = "pinion.cursor")
public interface CursorConfig {

    /**
     * Secret for the HMAC that makes cursors tamper-evident. Every instance of a deployment must share it; set
     * {@code PINION_CURSOR_SECRET} in production.
     */
    @WithDefault("pinion-local-cursor-secret-change-me")
    String secret();
}
