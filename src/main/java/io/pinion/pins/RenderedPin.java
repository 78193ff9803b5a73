package io.pinion.pins;

import java.io.IOException;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;

/**
 * A pin's view with its JSON, written once per cached pin ({@link PinViews#rendered}): a page of pins copies their
 * bytes into the response instead of serializing each pin's fields and formatting its time again. The API shows it
 * exactly as {@link PinView}.
 *
 * @param view the pin's view
 * @param json the view as JSON (its UTF-8 bytes are kept after the first write)
 */
@Schema(implementation = PinView.class)
@JsonSerialize(using = RenderedPin.Writer.class)
public record RenderedPin(PinView view, SerializedString json) {

    /** Writes the kept JSON as it is. */
    static final class Writer extends StdSerializer<RenderedPin> {

        Writer() {
            super(RenderedPin.class);
        }

        @Override
        public void serialize(RenderedPin pin, JsonGenerator generator, SerializerProvider provider)
                throws IOException {
            generator.writeRawValue(pin.json());
        }
    }
}
