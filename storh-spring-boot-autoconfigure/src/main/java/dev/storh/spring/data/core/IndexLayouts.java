package dev.storh.spring.data.core;

import dev.storh.doc.DocStore;
import dev.storh.doc.index.IndexManager;

/**
 * Which index layout a collection opened through Spring uses: the original's, whose value files
 * the PHP original can read, or storh's value deltas, whose writes cost the same however many
 * records share a value (see the {@code docs/indexes.md} section on value deltas). Value deltas
 * are opt-in: without an explicit layout a collection keeps the layout its index manifest records,
 * and a new collection gets the original's, so a root shared with the original stays readable by
 * it; an explicit layout is switched to (leaving value deltas rebuilds every index in the
 * original's files). Stateless.
 */
public final class IndexLayouts {

    private IndexLayouts() {
    }

    /**
     * Asks for the collection's layout; it reaches the manifest with the collection's next index
     * {@code sync()}, which this call runs only to switch an explicit layout on a collection that
     * has index definitions.
     * @param store a collection just opened, before anyone else uses it
     * @param valueDeltas {@code true} for value deltas, {@code false} for the original's layout,
     * {@code null} to keep the layout the manifest records
     * @throws dev.storh.StorageException when the collection cannot be read or switched
     */
    public static void prepare(DocStore store, Boolean valueDeltas) {
        if (valueDeltas == null) {
            return;
        }
        IndexManager indexes = store.indexes();
        if (indexes.valueDeltas() != valueDeltas) {
            indexes.valueDeltas(valueDeltas);
            if (!indexes.definitions().isEmpty()) {
                indexes.sync();
            }
        }
    }

}
