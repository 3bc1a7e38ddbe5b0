package dev.storh.schema;

import dev.storh.json.WireName;

/** Field types of a {@link Schema}, with the original's type names as their wire names. */
public enum FieldType implements WireName {
    /** A JSON string. */
    STRING("string"),
    /** A JSON integer (the original's {@code int}); {@code 1.0} is refused. */
    INTEGER("int"),
    /** A JSON number, integer or fraction (the original's {@code float}). */
    NUMBER("float"),
    /** {@code true} or {@code false}; {@code 1} is refused. */
    BOOL("bool"),
    /** Any value. */
    MIXED("mixed");

    private final String label;

    FieldType(String label) {
        this.label = label;
    }

    /**
     * @return the original's type name, used in error messages
     */
    @Override
    public String label() {
        return label;
    }

    boolean accepts(Object v) {
        switch (this) {
            case STRING:
                return v instanceof String;
            case INTEGER:
                return v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte
                        || v instanceof java.math.BigInteger;
            case NUMBER:
                return v instanceof Number;
            case BOOL:
                return v instanceof Boolean;
            default:
                return true;
        }
    }
}
