package io.pinion.paging;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Base64;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.failure.InvalidInput;

/**
 * Opaque page cursors: a list position plus an HMAC over the position and the list it belongs to, so a forged
 * cursor, or one taken from another list, is rejected with 400 {@code invalid_cursor}.
 */
@ApplicationScoped
public class Cursors {

    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder DECODER = Base64.getUrlDecoder();
    private static final int MAC_BYTES = 12;

    private final byte[] secret;

    Cursors(CursorConfig config) {
        this.secret = config.secretInForce().getBytes(StandardCharsets.UTF_8);
    }

    /** The cursor that continues {@code list} after {@code position}; null when there is no next page. */
    public String encode(String list, Position position) {
        if (position == null) {
            return null;
        }
        String payload = position.sequence() + ":" + position.toId();
        return ENCODER.encodeToString(payload.getBytes(StandardCharsets.UTF_8)) + "."
                + ENCODER.encodeToString(mac(list, payload));
    }

    /** The position a cursor of {@code list} points at; null for no cursor (first page). */
    public Position decode(String list, String cursor) {
        if (cursor == null || cursor.isEmpty()) {
            return null;
        }
        try {
            int dot = cursor.indexOf('.');
            if (dot < 0 || cursor.length() > 200) {
                throw invalid();
            }
            String payload = new String(DECODER.decode(cursor.substring(0, dot)), StandardCharsets.UTF_8);
            byte[] given = DECODER.decode(cursor.substring(dot + 1));
            if (!MessageDigest.isEqual(given, mac(list, payload))) {
                throw invalid();
            }
            int colon = payload.indexOf(':');
            return new Position(
                    Long.parseLong(payload.substring(0, colon)), Long.parseLong(payload.substring(colon + 1)));
        } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
            throw invalid();
        }
    }

    private byte[] mac(String list, String payload) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            mac.update(list.getBytes(StandardCharsets.UTF_8));
            mac.update((byte) '|');
            return Arrays.copyOf(mac.doFinal(payload.getBytes(StandardCharsets.UTF_8)), MAC_BYTES);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static InvalidInput invalid() {
        return new InvalidInput("invalid_cursor", "the cursor is not one this list handed out");
    }
}
