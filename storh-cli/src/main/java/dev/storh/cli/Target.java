package dev.storh.cli;

import dev.storh.doc.DocStore;
import dev.storh.queue.Queue;
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
     * Opens the target as the store contract every engine shares, so a command that only verifies
     * or counts needs no engine of its own. Segmented logs are opened by the commands themselves
     * until {@code SegmentedLog} implements {@link Store}.
     *
     * @return the open store; close it
     * @throws IllegalStateException for a log
     */
    Store open() {
        return switch (engine) {
            case DOC -> DocStore.open(root, collection);
            case QUEUE -> Queue.open(root, collection);
            case LOG -> throw new IllegalStateException("segmented logs do not implement the store contract yet: "
                    + dir());
        };
    }
}
