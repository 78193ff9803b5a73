package io.pinion.auth;

/** Roles carried in the token's {@code groups} claim. */
public final class Roles {

    /** Every signed-in user. */
    public static final String USER = "user";
    /** Operators: topology reload, queue administration. */
    public static final String ADMIN = "admin";

    private Roles() {
    }
}
