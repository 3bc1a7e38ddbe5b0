package dev.storh.spring.boot.autoconfigure;

/**
 * Thrown at startup when a {@code storh.*} property has a value storh cannot use, e.g.
 * {@code storh.logs.events.max-segment-bytes=12B} below the 256-byte minimum. Carries the
 * property's name and bad value; {@link InvalidStorhPropertyFailureAnalyzer} turns it into a
 * startup report that names the property to fix.
 */
public class InvalidStorhPropertyException extends RuntimeException {

    private final String property;

    private final Object value;

    private final String reason;

    /**
     * @param property the full property name, e.g. {@code storh.logs.events.max-segment-bytes}
     * @param value the bound value
     * @param reason why the value cannot be used
     */
    public InvalidStorhPropertyException(String property, Object value, String reason) {
        this(property, value, reason, null);
    }

    /**
     * @param property the full property name
     * @param value the bound value
     * @param reason why the value cannot be used
     * @param cause the engine's exception, or {@code null}
     */
    public InvalidStorhPropertyException(String property, Object value, String reason, Throwable cause) {
        super("Invalid value '" + value + "' for property '" + property + "': " + reason, cause);
        this.property = property;
        this.value = value;
        this.reason = reason;
    }

    /**
     * @return the full property name
     */
    public String getProperty() {
        return this.property;
    }

    /**
     * @return the bound value
     */
    public Object getValue() {
        return this.value;
    }

    /**
     * @return why the value cannot be used
     */
    public String getReason() {
        return this.reason;
    }

}
