package dev.storh.schema;

/**
 * One declared field of a {@link Schema}.
 *
 * @param name the top-level field name
 * @param type its type
 * @param index plain equality index requested
 * @param unique unique index requested
 * @param range range index requested
 * @param required whether the key must be present (a present {@code null} satisfies it)
 */
public record SchemaField(String name, FieldType type, boolean index, boolean unique, boolean range, boolean required) {

    /**
     * @return whether the field is indexed: {@code index || unique || range}
     */
    public boolean indexed() {
        return index || unique || range;
    }
}
