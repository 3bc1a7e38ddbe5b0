package dev.storh.cli;

import dev.storh.doc.DocStore;
import dev.storh.log.SegmentedLog;
import dev.storh.queue.Queue;
import dev.storh.progress.ProgressListener;
import picocli.CommandLine.Command;

/**
 * {@code storh compact <root> [collection] [doc|log|queue]}: a log is
 * compacted and its stats printed; a document collection has nothing to compact and prints
 * {@code {ok, records}}; a queue's {@code queue.log} is rewritten to its live jobs' events (the
 * original does nothing there) and the queue's stats printed. The engine defaults to the folder's
 * own rather than the original's {@code log}.
 */
@Command(name = "compact", mixinStandardHelpOptions = true,
        description = {"Compact a log (prints its stats), a queue (rewrites queue.log to the live jobs;"
                + " prints its stats) or a document collection (nothing to do; prints {ok, records})."})
final class CompactCommand extends StoreCommand {

    @Override
    Outcome run(Target target, ProgressListener progress) {
        switch (target.engine()) {
            case DOC -> {
                try (DocStore store = DocStore.open(target.root(), target.collection())) {
                    return Outcome.ok(store.compact(progress).toMap());
                }
            }
            case LOG -> {
                try (SegmentedLog log = SegmentedLog.open(target.root(), target.collection())) {
                    log.compact(progress);
                    return Outcome.ok(log.stats().toMap());
                }
            }
            default -> {
                try (Queue queue = Queue.open(target.root(), target.collection())) {
                    queue.compact(progress);
                    return Outcome.ok(queue.stats().toMap());
                }
            }
        }
    }
}
