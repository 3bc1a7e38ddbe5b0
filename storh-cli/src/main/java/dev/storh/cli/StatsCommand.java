package dev.storh.cli;

import dev.storh.doc.DocStore;
import dev.storh.doc.StoreStats;
import dev.storh.log.SegmentedLog;
import dev.storh.queue.Queue;
import dev.storh.progress.ProgressListener;
import picocli.CommandLine.Command;

/**
 * {@code storh stats <root> [collection] [doc|log|queue]}: the engine's statistics:
 * doc {@code {records, bytes, corrupt, indexes}}, log
 * {@code {segments, records, deleted, bytes}}, queue {@code {pending, processing, done, bytes}}.
 * Exits 1 when a document collection has corrupt record files.
 */
@Command(name = "stats", mixinStandardHelpOptions = true,
        description = {"Print the statistics of a collection, log or queue.",
            "doc: {records, bytes, corrupt, indexes}; log: {segments, records, deleted, bytes};"
                    + " queue: {pending, processing, done, bytes}.",
            "Exit 1 when a document collection has corrupt record files."})
final class StatsCommand extends StoreCommand {

    @Override
    Outcome run(Target target, ProgressListener progress) {
        switch (target.engine()) {
            case DOC -> {
                try (DocStore store = DocStore.open(target.root(), target.collection())) {
                    StoreStats stats = store.stats();
                    return new Outcome(stats.toMap(), stats.corrupt() == 0);
                }
            }
            case LOG -> {
                try (SegmentedLog log = SegmentedLog.open(target.root(), target.collection())) {
                    return Outcome.ok(log.stats().toMap());
                }
            }
            default -> {
                try (Queue queue = Queue.open(target.root(), target.collection())) {
                    return Outcome.ok(queue.stats().toMap());
                }
            }
        }
    }
}
