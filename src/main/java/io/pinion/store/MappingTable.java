package io.pinion.store;

/**
 * The one-way mapping tables. Each lives on the shard of its {@code from} id; the reverse direction, where
 * needed, is its own table on the other object's shard.
 */
public enum MappingTable {
    USER_HAS_BOARDS("user_has_boards"),
    BOARD_HAS_PINS("board_has_pins"),
    USER_HAS_PINS("user_has_pins"),
    USER_LIKES_PINS("user_likes_pins"),
    PIN_LIKED_BY_USERS("pin_liked_by_users"),
    PIN_SAVED_TO_PINS("pin_saved_to_pins");

    private final String table;

    MappingTable(String table) {
        this.table = table;
    }

    public String table() {
        return table;
    }
}
