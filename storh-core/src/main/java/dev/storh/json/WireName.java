package dev.storh.json;

import java.util.Locale;
import java.util.Optional;

/**
 * An enum whose constants have a wire name: the word used for them in JSON, reports, messages,
 * metric tags and configuration. By default it is the constant's name in lower case
 * ({@code NOT_IN} → {@code not_in}); an enum whose words differ overrides {@link #label()}.
 * <p>
 * Implemented by enums only; constants are immutable and thread-safe.
 */
public interface WireName {

    /**
     * @return the constant's Java name, as {@link Enum#name()} gives it
     */
    String name();

    /**
     * @return the wire name, e.g. {@code "collection"}, {@code "not_in"}, {@code "sqlite"}
     */
    default String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * @param <E> the enum
     * @param type the enum's class
     * @param label a wire name, compared exactly (letter case included)
     * @return the constant with that wire name, or empty (also for {@code null})
     */
    static <E extends Enum<E> & WireName> Optional<E> byLabel(Class<E> type, String label) {
        for (E constant : type.getEnumConstants()) {
            if (constant.label().equals(label)) {
                return Optional.of(constant);
            }
        }
        return Optional.empty();
    }
}
