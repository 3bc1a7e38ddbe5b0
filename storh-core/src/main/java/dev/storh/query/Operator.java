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
    PREFIX("prefix");

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
}
