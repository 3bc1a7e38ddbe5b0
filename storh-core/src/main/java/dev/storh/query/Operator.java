package dev.storh.query;

import dev.storh.json.WireName;

/**
 * Condition operators, named as the original names them: the {@link #label()} (the constant in
 * lower case, {@code not_in}) is the name used in {@code explain()} output and messages.
 */
public enum Operator implements WireName {
    /** Present and strictly identical. */
    EQ,
    /** Missing, or not identical. */
    NEQ,
    /** Present and identical to one of the values. */
    IN,
    /** Missing, or identical to none of the values. */
    NOT_IN,
    /** Present and greater. */
    GT,
    /** Present and greater or equal. */
    GTE,
    /** Present and less. */
    LT,
    /** Present and less or equal. */
    LTE,
    /** Present and within both bounds, inclusive. */
    BETWEEN,
    /** Key present (a null value counts). */
    EXISTS,
    /** Key absent. */
    MISSING,
    /** Present string starting with the given string. */
    PREFIX,
    /** Present string ending with the given string. */
    SUFFIX,
    /** Present string containing the given string. */
    CONTAINS,
    /** Missing, or not a string containing the given string. */
    NOT_CONTAINS,
    /**
     * Present string matching the given pattern as a whole, where {@code *} stands for any run of
     * characters (none included) and every other character for itself.
     */
    LIKE,
    /** Missing, or not a string matching the {@link #LIKE} pattern. */
    NOT_LIKE,
    /** Present string in which the given {@link java.util.regex.Pattern} finds a match. */
    REGEX,
    /** Present list with an element identical to the given value. */
    HAS,
    /** Missing, or not a list with an element identical to the given value. */
    NOT_HAS;

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
