package io.pinion.users;

/**
 * A signed bearer token and the user it speaks for.
 */
public record Session(String token, String userId) {
}
