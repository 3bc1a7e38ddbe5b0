package dev.storh.cli;

import dev.storh.doc.DocStore;
import dev.storh.log.SegmentedLog;
import dev.storh.queue.Queue;
import dev.storh.progress.ProgressListener;
import java.time.Duration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code storh repair <root> [collection] [doc|log|queue]}: the engines' repair calls, which the
 * original has no command for. Prints the engine's report:
 * doc {@code {ok, quarantined, reindexed: {fields, entries}}} (corrupt record files moved to
 * {@code .storh/corrupt/}, indexes rebuilt), log {@code {ok, stats, bytesCut}} (state rebuilt,
 * torn tails cut), queue {@code {ok, requeued}} (log replayed and cut at its first bad line,
 * jobs claimed longer ago than {@code --processing-timeout} requeued).
 */
@Command(name = "repair", mixinStandardHelpOptions = true,
        description = {"Mend a collection, log or queue (run it with the application stopped).",
            "doc: moves corrupt record files to .storh/corrupt/ and rebuilds the indexes; prints {ok, quarantined, reindexed}.",
            "log: rebuilds the state and cuts torn tails; prints {ok, stats, bytesCut}.",
            "queue: replays queue.log, cuts it at its first bad line, requeues stale claims; prints {ok, requeued}."})
final class RepairCommand extends StoreCommand {

    @Option(names = "--processing-timeout", paramLabel = "<duration>", converter = DurationConverter.class,
            description = "Queues only: requeue jobs claimed at least this long ago (90s, 15m, 1h, PT1H; default 1h).")
    Duration processingTimeout;

    @Override
    void checkOptions(Target target) {
        if (processingTimeout != null && target.engine() != Engine.QUEUE) {
            throw new CliUsageException("--processing-timeout applies to queues only; collection '" + target.collection()
                    + "' under root " + target.root() + " is a " + target.engine().description() + ".");
        }
    }

    @Override
    Outcome run(Target target, ProgressListener progress) {
        switch (target.engine()) {
            case DOC -> {
                try (DocStore store = DocStore.open(target.root(), target.collection())) {
                    return Outcome.ok(store.repair(progress).toMap());
                }
            }
            case LOG -> {
                try (SegmentedLog log = SegmentedLog.open(target.root(), target.collection())) {
                    return Outcome.ok(log.repair(progress).toMap());
                }
            }
            default -> {
                try (Queue queue = Queue.open(target.root(), target.collection())) {
                    return Outcome.ok(queue.repair(processingTimeout == null ? Duration.ofHours(1) : processingTimeout, progress).toMap());
                }
            }
        }
    }
}
