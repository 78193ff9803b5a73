package io.pinion.id;

/**
 * A 64-bit Pinion id: {@code 2 reserved zero bits | 16-bit shard | 10-bit type | 36-bit local id}, i.e.
 * {@code (shard << 46) | (type << 36) | local}. The shard says where the object lives forever; the local id is
 * the AUTO_INCREMENT value of the shard's table. Ids travel as decimal strings.
 */
public record PinionId(int shard, ObjectType type, long local) {

    public static final int SHARD_BITS = 16;
    public static final int TYPE_BITS = 10;
    public static final int LOCAL_BITS = 36;
    public static final long MAX_LOCAL = (1L << LOCAL_BITS) - 1;
    public static final int MAX_SHARD = (1 << SHARD_BITS) - 1;

    private static final int TYPE_SHIFT = LOCAL_BITS;
    private static final int SHARD_SHIFT = LOCAL_BITS + TYPE_BITS;
    private static final long TYPE_MASK = (1L << TYPE_BITS) - 1;
    private static final long RESERVED_MASK = 0b11L << (SHARD_SHIFT + SHARD_BITS);

    public PinionId {
        if (shard < 0 || shard > MAX_SHARD) {
            throw new IllegalArgumentException("shard " + shard + " is outside 0.." + MAX_SHARD);
        }
        if (type == null) {
            throw new IllegalArgumentException("type is required");
        }
        if (local < 1 || local > MAX_LOCAL) {
            throw new IllegalArgumentException("local id " + local + " is outside 1.." + MAX_LOCAL + " (36 bits)");
        }
    }

    public static PinionId of(int shard, ObjectType type, long local) {
        return new PinionId(shard, type, local);
    }

    /** The 64-bit value. */
    public long value() {
        return ((long) shard << SHARD_SHIFT) | ((long) type.code() << TYPE_SHIFT) | local;
    }

    /**
     * Decodes a 64-bit value; rejects set reserved bits, unknown types and a zero local id.
     *
     * @throws IllegalArgumentException with the reason
     */
    public static PinionId decode(long value) {
        if (value <= 0) {
            throw new IllegalArgumentException("an id is a positive number");
        }
        if ((value & RESERVED_MASK) != 0) {
            throw new IllegalArgumentException("the reserved bits of the id are set");
        }
        int shard = (int) (value >>> SHARD_SHIFT);
        int typeCode = (int) ((value >>> TYPE_SHIFT) & TYPE_MASK);
        long local = value & MAX_LOCAL;
        ObjectType type = ObjectType.ofCode(typeCode)
                .orElseThrow(() -> new IllegalArgumentException("the id has unknown type " + typeCode));
        return new PinionId(shard, type, local);
    }

    /**
     * Parses the decimal text of an id.
     *
     * @throws IllegalArgumentException with the reason (not a number, negative, reserved bits, unknown type)
     */
    public static PinionId parse(String text) {
        if (text == null || text.isEmpty() || text.length() > 20) {
            throw new IllegalArgumentException("an id is a decimal number of at most 19 digits");
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '-' && i == 0) {
                throw new IllegalArgumentException("an id is never negative");
            }
            if (c < '0' || c > '9') {
                throw new IllegalArgumentException("an id is a decimal number");
            }
        }
        long value;
        try {
            value = Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("an id fits in 63 bits");
        }
        return decode(value);
    }

    @Override
    public String toString() {
        return Long.toString(value());
    }
}
