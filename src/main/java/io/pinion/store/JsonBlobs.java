package io.pinion.store;

import jakarta.enterprise.context.ApplicationScoped;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Converts the records kept in the {@code data} column to and from JSON.
 */
@ApplicationScoped
public class JsonBlobs {

    private final ObjectMapper mapper;

    JsonBlobs(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    public String write(Object value) {
        try {
            return mapper.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialize " + value.getClass().getSimpleName(), e);
        }
    }

    /** The object's blob as {@code type}, decoded once per cached object ({@link StoredObject#decoded}). */
    public <T> T read(StoredObject stored, Class<T> type) {
        return stored.decoded(type, json -> read(json, type));
    }

    public <T> T read(String json, Class<T> type) {
        try {
            return mapper.readValue(json, type);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("corrupt " + type.getSimpleName() + " blob: " + e.getOriginalMessage(), e);
        }
    }
}
