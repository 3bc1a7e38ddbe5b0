package dev.storh.query;

/** Condition operators, named as the original names them. */
public enum Operator {
    /** Present and strictly identical. */
    EQ("eq"),
    /** Missing, or not identical. */
    NEQ("neq"),
    /** Present and identical to one of the values. */
    IN("in"),
    /** Missing, or identical to none of the values. */
    NOT_IN("not_in"),
    /** Present and greater. */
    GT("gt"),
    /** Present and greater or equal. */
    GTE("gte"),
    /** Present and less. */
    LT("lt"),
    /** Present and less or equal. */
    LTE("lte"),
    /** Present and within both bounds, inclusive. */
    BETWEEN("between"),
    /** Key present (a null value counts). */
    EXISTS("exists"),
    /** Key absent. */
    MISSING("missing"),
    /** Present string starting with the given string. */
    PREFIX("prefix"),
    /** Present string ending with the given string. */
    SUFFIX("suffix"),
    /** Present string containing the given string. */
    CONTAINS("contains"),
    /** Missing, or not a string containing the given string. */
    NOT_CONTAINS("not_contains"),
    /**
     * Present string matching the given pattern as a whole, where {@code *} stands for any run of
     * characters (none included) and every other character for itself.
     */
    LIKE("like"),
    /** Missing, or not a string matching the {@link #LIKE} pattern. */
    NOT_LIKE("not_like"),
    /** Present string in which the given {@link java.util.regex.Pattern} finds a match. */
    REGEX("regex"),
    /** Present list with an element identical to the given value. */
    HAS("has"),
    /** Missing, or not a list with an element identical to the given value. */
    NOT_HAS("not_has");

    private final String label;

    Operator(String label) {
        this.label = label;
    }

    /**
     * @return the name used in {@code explain()} output
     */
    public String label() {
        return label;
    }

    /**
     * @return whether a range index can answer this operator
     */
    public boolean isRange() {
        return this == GT || this == GTE || this == LT || this == LTE || this == BETWEEN || this == PREFIX;
    }

    /**
     * @return the positive operator this one negates ({@code neq} → {@code eq}), or {@code null}
     *     when this operator is not a negation; a negation matches a record when no value its field
     *     reaches matches the positive operator
     */
    public Operator negated() {
        return switch (this) {
            case NEQ -> EQ;
            case NOT_IN -> IN;
            case MISSING -> EXISTS;
            case NOT_CONTAINS -> CONTAINS;
            case NOT_LIKE -> LIKE;
            case NOT_HAS -> HAS;
            default -> null;
        };
    }

    /**
     * @return whether the operator compares strings and so may ignore case
     */
    public boolean foldsCase() {
        return this != GT && this != GTE && this != LT && this != LTE && this != BETWEEN && this != EXISTS
                && this != MISSING;
    }
}
