package dev.storh.cli;

import dev.storh.doc.DocStore;
import dev.storh.progress.ProgressListener;
import dev.storh.store.Store;
import java.util.EnumSet;
import java.util.Set;

/**
 * A command on document collections only ({@code reindex}, {@code import}, {@code export}): any
 * other engine is refused before anything is opened, and the work gets the {@link DocStore}.
 */
abstract class CollectionCommand extends StoreCommand {

    @Override
    final Set<Engine> engines() {
        return EnumSet.of(Engine.DOC);
    }

    @Override
    final Outcome run(Store<?, ?, ?> store, Target target, ProgressListener progress) {
        return run((DocStore) store, progress);
    }

    /**
     * Does the work on the open collection, which is closed afterwards.
     *
     * @param store the collection, open
     * @param progress receives the store's progress, for the bar
     * @return the report and whether the store is healthy
     */
    abstract Outcome run(DocStore store, ProgressListener progress);
}
