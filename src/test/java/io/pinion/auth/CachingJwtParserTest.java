package io.pinion.auth;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.pinion.TestApi;
import io.pinion.stack.StackTest;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.jwt.auth.principal.JWTParser;
import io.smallrye.jwt.auth.principal.ParseException;
import io.smallrye.jwt.build.Jwt;

/**
 * The service verifies bearer tokens through the caching parser: a verified token is reused, while a token with a
 * changed signature or an expired one is still refused.
 */
@QuarkusTest
@StackTest
class CachingJwtParserTest {

    @Inject
    JWTParser parser;

    @Test
    void verifiedTokensAreReusedAndBadOnesRefused() throws ParseException {
        assertInstanceOf(CachingJwtParser.class, parser);
        String token = TestApi.newUser().token();
        assertSame(parser.parse(token), parser.parse(token), "a verified token is not verified again");

        char last = token.charAt(token.length() - 2);
        String tampered =
                token.substring(0, token.length() - 2) + (last == 'A' ? 'B' : 'A') + token.charAt(token.length() - 1);
        assertThrows(ParseException.class, () -> parser.parse(tampered));

        String expired = Jwt.issuer("pinion").subject("1").expiresIn(Duration.ofSeconds(-60)).sign();
        assertThrows(ParseException.class, () -> parser.parse(expired));
        assertThrows(ParseException.class, () -> parser.parse(expired), "a refused token is not cached");
    }
}
