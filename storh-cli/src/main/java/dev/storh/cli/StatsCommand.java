package dev.storh.cli;

import dev.storh.progress.ProgressListener;
import dev.storh.store.Store;
import java.util.Map;
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
    Outcome run(Store<?, ?, ?> store, Target target, ProgressListener progress) {
        Map<String, Object> stats = store.stats().toMap();
        // a collection counts its corrupt record files; the other engines have none to count
        return new Outcome(stats, !(stats.get("corrupt") instanceof Number corrupt) || corrupt.longValue() == 0);
    }
}
