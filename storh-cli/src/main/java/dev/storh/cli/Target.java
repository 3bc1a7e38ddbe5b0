package dev.storh.cli;

import dev.storh.store.Store;
import java.nio.file.Path;

/**
 * The store a command works on, checked before anything is opened.
 *
 * @param root the storage root as given on the command line (not resolved)
 * @param collection the collection, log or queue name under the root
 * @param engine the engine the folder holds (or will hold, for an import into a new collection)
 */
record Target(Path root, String collection, Engine engine) {

    /**
     * @return {@code <root>/<collection>}
     */
    Path dir() {
        return root.resolve(collection);
    }

    /**
     * @return how messages and the progress bar name the store, e.g. {@code "doc app/cities"}
     */
    String label() {
        return engine.word() + " " + dir();
    }

    /**
     * Opens the target as the store contract every engine shares, so that the maintenance
     * commands need no engine of their own.
     *
     * @return the open store; close it
     * @throws dev.storh.StorageException when the store cannot be opened
     */
    Store<?, ?, ?> open() {
        return engine.handling().open(root, collection);
    }
}
