package dev.storh;

/**
 * Data does not satisfy a collection's schema: a
 * required field is missing or a field has the wrong type. Nothing was written.
 */
public class SchemaViolationException extends StorageException {

    private static final long serialVersionUID = 1L;

    private final String field;

    /**
     * @param message e.g. {@code "Missing required schema field: name"}
     * @param field the offending field
     */
    public SchemaViolationException(String message, String field) {
        super(message);
        this.field = field;
    }

    /**
     * @return the offending field
     */
    public String field() {
        return field;
    }
}
