package dev.storh.spring.boot.stores;

import java.util.Locale;

import dev.storh.store.StoreKind;

/**
 * The three kinds of storh store, with the words used for them in metric tags ({@link #tag()})
 * and in the {@code storh} endpoint's paths ({@link #plural()}).
 */
public enum StoreType {

    /** A DocStore collection: one JSONC file per record. */
    COLLECTION(true),

    /** A segmented log. */
    LOG(true),

    /** A job queue; queues keep no writer markers. */
    QUEUE(false);

    private final boolean writerMarkers;

    StoreType(boolean writerMarkers) {
        this.writerMarkers = writerMarkers;
    }

    /**
     * @return whether stores of this kind keep writer markers in {@code .storh/writers/}, which a
     * repair first clears of crashed writers
     */
    public boolean writerMarkers() {
        return this.writerMarkers;
    }

    /**
     * @return the singular lowercase word, e.g. {@code collection}
     */
    public String tag() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * @return the plural lowercase word, e.g. {@code collections}
     */
    public String plural() {
        return tag() + "s";
    }

    /**
     * @param kind an engine's kind
     * @return the type of that kind
     */
    public static StoreType of(StoreKind kind) {
        return switch (kind) {
            case COLLECTION -> COLLECTION;
            case LOG -> LOG;
            case QUEUE -> QUEUE;
        };
    }

    /**
     * @param text a singular or plural word, any case ({@code log}, {@code logs})
     * @return the type, or {@code null} when the text names none
     */
    public static StoreType parse(String text) {
        for (StoreType type : values()) {
            if (type.tag().equalsIgnoreCase(text) || type.plural().equalsIgnoreCase(text)) {
                return type;
            }
        }
        return null;
    }

}
