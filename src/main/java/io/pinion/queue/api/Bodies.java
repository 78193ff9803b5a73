package io.pinion.queue.api;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/** Job bodies are bytes; the API shows them as text when they are valid UTF-8. */
final class Bodies {

    private Bodies() {
    }

    static String text(byte[] body) {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(body)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    static String base64(byte[] body) {
        return Base64.getEncoder().encodeToString(body);
    }
}
