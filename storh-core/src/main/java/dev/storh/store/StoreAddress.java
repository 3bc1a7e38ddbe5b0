package dev.storh.store;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Which store an instance is: its engine, its name and its folder. Every engine keeps one, made
 * when it opens, and answers {@link Store#kind()}, {@link Store#name()} and {@link Store#directory()}
 * from it. Immutable.
 *
 * @param kind the engine
 * @param name the collection name, the log's collection path as opened ({@code "events"},
 *     {@code "audit/2026"}, without a partition folder) or the queue name
 * @param directory the store's folder, absolute and normalised (a partitioned log's partition folder)
 */
public record StoreAddress(StoreKind kind, String name, Path directory) {

    /**
     * @throws NullPointerException when a component is null
     */
    public StoreAddress {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(directory, "directory");
    }
}
