package dev.storh.cli;

import dev.storh.progress.ProgressListener;
import dev.storh.store.CompactReport;
import dev.storh.store.Store;
import picocli.CommandLine.Command;

/**
 * {@code storh compact <root> [collection] [doc|log|queue]}: the store contract's compaction, for
 * every engine. A log is compacted and its stats printed; a document collection has nothing to
 * compact and prints the report {@code {ok, records}}; a queue's {@code queue.log} is rewritten to
 * its live jobs' events (the original does nothing there) and the queue's stats printed (which of
 * the two is printed is the engine's {@link Engine.Handling#statsAfterCompact()}, the original's output).
 * The engine defaults to the folder's own rather than the original's {@code log}.
 */
@Command(name = "compact", mixinStandardHelpOptions = true,
        description = {"Compact a log (prints its stats), a queue (rewrites queue.log to the live jobs;"
                + " prints its stats) or a document collection (nothing to do; prints {ok, records})."})
final class CompactCommand extends StoreCommand {

    @Override
    Outcome run(Store<?, ?, ?> store, Target target, ProgressListener progress) {
        CompactReport<?> report = store.compact(progress);
        return Outcome.ok(target.engine().handling().statsAfterCompact() ? store.stats().toMap() : report.toMap());
    }
}
