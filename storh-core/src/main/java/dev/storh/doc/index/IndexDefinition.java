package dev.storh.doc.index;

/**
 * One index definition: a field, indexed for equality
 * (plain or unique) or as a range (sorted; no equality files even when unique).
 *
 * @param field the top-level field name
 * @param unique whether two records may not share a value (checked before writing)
 * @param range whether the field has a range index instead of equality files
 */
public record IndexDefinition(String field, boolean unique, boolean range) {

    /**
     * @return whether the field has equality files
     */
    public boolean equality() {
        return !range;
    }

    /**
     * @param other another definition of the same field
     * @return the OR of both definitions' flags (definitions only grow, as in the original)
     */
    IndexDefinition merge(IndexDefinition other) {
        return new IndexDefinition(field, unique || other.unique, range || other.range);
    }
}
