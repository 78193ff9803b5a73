package io.pinion.queue.api;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Base64;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.failure.InvalidInput;
import io.pinion.id.PinionId;
import io.pinion.paging.CursorConfig;

/**
 * Lease tokens handed to HTTP workers: the job's lease sequence ({@code lease_seq}: one more at every lease of the job,
 * never reset, not even by an admin's retry) and an HMAC-SHA256 (128 bits) of the job id and that sequence under the
 * deployment's secret ({@code pinion.cursor.secret}), so a token cannot be guessed, moved to another job or lease, or
 * handed out twice, and any instance can check it without a lookup. The sequence then selects the lease in the job's
 * row, so the token of any earlier lease is refused as {@code lease_lost}.
 */
@ApplicationScoped
public class LeaseTokens {

    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
    private static final int MAC_BYTES = 16;

    private final SecretKeySpec key;
    /** One initialized MAC per thread: looking the algorithm up and keying it cost more than the MAC itself. */
    private final ThreadLocal<Mac> macs;

    LeaseTokens(CursorConfig config) {
        this.key = new SecretKeySpec(config.secretInForce().getBytes(StandardCharsets.UTF_8), "HmacSHA256");
        this.macs = ThreadLocal.withInitial(this::newMac);
    }

    public String issue(PinionId job, long lease) {
        return lease + "." + ENCODER.encodeToString(mac(job, lease));
    }

    /** The lease a token stands for; 400 {@code invalid_lease_token} when it is missing or not one handed out. */
    public long lease(PinionId job, String token, String field) {
        if (token == null || token.isBlank()) {
            throw new InvalidInput(
                    "invalid_lease_token", field + " is required: the leaseToken handed out with the job");
        }
        try {
            int dot = token.indexOf('.');
            if (dot < 1 || token.length() > 64) {
                throw new IllegalArgumentException();
            }
            long lease = Long.parseLong(token.substring(0, dot));
            // the exact text handed out: a decoder ignores the unused low bits of the last character, so comparing
            // decoded bytes would accept other spellings of the same MAC
            if (lease >= 1 && MessageDigest.isEqual(token.substring(dot + 1).getBytes(StandardCharsets.US_ASCII),
                    ENCODER.encodeToString(mac(job, lease)).getBytes(StandardCharsets.US_ASCII))) {
                return lease;
            }
        } catch (IllegalArgumentException e) {
            // falls through to the refusal
        }
        throw new InvalidInput("invalid_lease_token", field + " is not a lease token handed out for this job");
    }

    private byte[] mac(PinionId job, long lease) {
        Mac mac = macs.get();
        // doFinal resets the MAC to its key, ready for the next token
        return Arrays.copyOf(mac.doFinal(("lease-seq|" + job.value() + "|" + lease).getBytes(StandardCharsets.UTF_8)),
                MAC_BYTES);
    }

    private Mac newMac() {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            return mac;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
