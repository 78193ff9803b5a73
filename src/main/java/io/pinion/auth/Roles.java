package io.pinion.auth;

/** Roles carried in the token's {@code groups} claim. */
public final class Roles {

    /** Every signed-in user. */
    public static final String USER = "user";
    /** Operators: topology reload, queue administration. */
    public static final String ADMIN = "admin";

    /** Job workers outside the service: enqueue, dequeue, ack and inspect jobs. */
    public static final String WORKER = "worker";

    private Roles() {
    }
}
