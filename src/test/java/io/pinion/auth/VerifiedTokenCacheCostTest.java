package io.pinion.auth;

import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Set;

import org.eclipse.microprofile.jwt.JsonWebToken;
import org.junit.jupiter.api.Test;

import io.smallrye.jwt.auth.principal.DefaultJWTParser;
import io.smallrye.jwt.auth.principal.ParseException;

/**
 * The verified-token cache's own cost stays flat however many distinct tokens arrive: 100,000 tokens, ten times the
 * cache's bound, each new one costing a lookup and an insert (Caffeine evicts in O(1)), never a scan or a clear. The
 * signature check itself (RS256, about a millisecond) is replaced by a parser that accepts everything, so what is
 * measured is the cache alone.
 */
class VerifiedTokenCacheCostTest {

    @Test
    void aHundredThousandDistinctTokensCostTheSamePerToken() throws ParseException {
        long exp = System.currentTimeMillis() / 1000 + 3600;
        CachingJwtParser parser = new CachingJwtParser(new DefaultJWTParser() {
            @Override
            public JsonWebToken parse(String token) {
                return new Token(token, exp);
            }
        });
        int batches = 10;
        long[] nanos = new long[batches];
        for (int batch = 0; batch < batches; batch++) {
            long started = System.nanoTime();
            for (int i = 0; i < 10_000; i++) {
                parser.parse("token-" + (batch * 10_000 + i));
            }
            nanos[batch] = System.nanoTime() - started;
        }
        System.out.printf("CachingJwtParser: ns per 10,000 new tokens (bound %,d): %s%n", CachingJwtParser.MAX_ENTRIES,
                Arrays.toString(nanos));
        // flat: the last batches (the cache full, evicting at every insert) cost no more than a few times the median
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        long median = sorted[batches / 2];
        for (int batch = batches / 2; batch < batches; batch++) {
            assertTrue(
                    nanos[batch] < median * 5 + 20_000_000L,
                    "batch " + batch + " took " + nanos[batch] + " ns, median " + median);
        }
        JsonWebToken recent = parser.parse("token-99999");
        assertSame(recent, parser.parse("token-99999"), "a recent token is still cached");
    }

    private record Token(String raw, long exp) implements JsonWebToken {
        @Override
        public String getName() {
            return raw;
        }

        @Override
        public Set<String> getClaimNames() {
            return Set.of("exp");
        }

        @Override
        @SuppressWarnings("unchecked")
        public <T> T getClaim(String claimName) {
            return "exp".equals(claimName) ? (T) Long.valueOf(exp) : null;
        }
    }
}
