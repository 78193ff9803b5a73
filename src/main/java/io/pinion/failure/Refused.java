package io.pinion.failure;

/**
 * The service refuses this request for now, by its own choice rather than because a backend failed: too much work
 * waiting ({@code overloaded}), a virtual shard being moved ({@code virtual_shard_moving}). Nothing was done; the
 * same request can be sent again shortly.
 */
public class Refused extends Failure {

    public Refused(String code, String message) {
        super(code, message, null);
    }
}
