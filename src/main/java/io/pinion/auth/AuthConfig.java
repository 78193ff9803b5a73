package io.pinion.auth;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * Tokens handed out at login. The signing key is {@code smallrye.jwt.sign.key.location}
 * ({@code PINION_JWT_PRIVATE_KEY}); the verification key {@code mp.jwt.verify.publickey.location}
 * ({@code PINION_JWT_PUBLIC_KEY}).
 */
@ConfigMapping(prefix = "pinion.auth")
public interface AuthConfig {

    /** How long a token is valid. */
    @WithDefault("24h")
    Duration tokenTtl();

    /** The {@code iss} claim; must equal {@code mp.jwt.verify.issuer}. */
    @WithDefault("pinion")
    String issuer();

    /**
     * How long an instance reuses a user's grants read from MySQL before reading them again: the most a revoked role or
     * queue grant keeps working on any instance.
     */
    @WithDefault("30s")
    Duration grantsReuse();

    /** bcrypt cost factor for new passwords (4-31); each step doubles the hashing time. */
    @WithDefault("10")
    int bcryptCost();
}
