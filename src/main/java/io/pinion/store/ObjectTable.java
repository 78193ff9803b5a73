package io.pinion.store;

import io.pinion.id.ObjectType;

/**
 * The object tables of a shard database and the id type of their rows.
 */
public enum ObjectTable {
    USERS("users", ObjectType.USER),
    BOARDS("boards", ObjectType.BOARD),
    PINS("pins", ObjectType.PIN);

    private final String table;
    private final ObjectType type;

    ObjectTable(String table, ObjectType type) {
        this.table = table;
        this.type = type;
    }

    public String table() {
        return table;
    }

    public ObjectType type() {
        return type;
    }
}
