package dev.storh;

/**
 * A write would give a unique-indexed field a value another record already has.
 * Nothing was written for that record.
 */
public class UniqueConstraintException extends StorageException {

    private static final long serialVersionUID = 1L;

    private final String field;
    private final transient Object value;
    private final String existingId;

    /**
     * @param field the unique field
     * @param value the duplicated value
     * @param existingId the record that already holds it
     */
    public UniqueConstraintException(String field, Object value, String existingId) {
        super("Unique index violation on field: " + field + " (value " + value + " is already used by record "
                + existingId + ")");
        this.field = field;
        this.value = value;
        this.existingId = existingId;
    }

    /**
     * @return the unique field
     */
    public String field() {
        return field;
    }

    /**
     * @return the duplicated value
     */
    public Object value() {
        return value;
    }

    /**
     * @return the id of the record that already holds the value
     */
    public String existingId() {
        return existingId;
    }
}
