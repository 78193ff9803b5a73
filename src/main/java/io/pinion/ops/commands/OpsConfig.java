package io.pinion.ops.commands;

import java.util.List;
import java.util.Optional;

import io.smallrye.config.ConfigMapping;

/**
 * {@code pinion.ops.*}: set by {@code bin/admin}. With a command, the started service runs it against the
 * topology's stores, prints the result and exits.
 */
@ConfigMapping(prefix = "pinion.ops")
public interface OpsConfig {

    /** {@code grant}, {@code revoke}, {@code grant-queue}, {@code revoke-queue} or {@code show}. */
    Optional<String> command();

    /** The user the command is about, by username. */
    Optional<String> username();

    /** Roles or queue names. */
    Optional<List<String>> values();
}
