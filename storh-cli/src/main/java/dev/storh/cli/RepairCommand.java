package dev.storh.cli;

import dev.storh.progress.ProgressListener;
import dev.storh.queue.Queue;
import dev.storh.store.RepairReport;
import dev.storh.store.Store;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code storh repair <root> [collection] [doc|log|queue]}: the engines' repair calls, which the
 * original has no command for. Prints the engine's report:
 * doc {@code {ok, quarantined, reindexed: {fields, entries}}} (corrupt record files moved to
 * {@code .storh/corrupt/}, indexes rebuilt), log {@code {ok, stats, bytesCut[, removed]}} (state
 * rebuilt, torn tails cut, damaged lines taken out of segments and kept in {@code .storh/corrupt/}),
 * queue {@code {ok, requeued[, removed]}} (log replayed, bad tail cut, damaged lines taken out and
 * kept in {@code queue.log.cut-*}, jobs claimed longer ago than {@code --processing-timeout}
 * requeued). {@code removed} lists each removed stretch as {@code <path>:<offset>: ...}. Every
 * engine goes through the store contract's repair and is verified after it: when problems remain
 * they are printed as {@code verifyErrors} and the exit code is {@link StorhCli#EXIT_PROBLEMS}.
 */
@Command(name = "repair", mixinStandardHelpOptions = true,
        description = {"Mend a collection, log or queue (run it with the application stopped).",
            "doc: moves corrupt record files to .storh/corrupt/ and rebuilds the indexes; prints {ok, quarantined, reindexed}.",
            "log: rebuilds the state, cuts torn tails, takes damaged lines out (kept in .storh/corrupt/);"
                + " prints {ok, stats, bytesCut[, removed]}.",
            "queue: replays queue.log, cuts a bad tail, takes damaged lines out (kept in queue.log.cut-*),"
                + " requeues stale claims; prints {ok, requeued[, removed]}.",
            "Exits 1 when a verify after the repair still finds problems (printed as verifyErrors)."})
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

    /** The repair's report; unhealthy, with the errors added, when a verify after it still finds problems. */
    private static Outcome checked(Map<String, Object> report, List<String> verifyErrors) {
        if (verifyErrors.isEmpty()) {
            return Outcome.ok(report);
        }
        report.put("verifyErrors", verifyErrors);
        return new Outcome(report, false);
    }

    @Override
    Outcome run(Store<?, ?, ?> store, Target target, ProgressListener progress) {
        // checkOptions has made sure that a processing timeout comes with a queue
        RepairReport<?> report = (processingTimeout == null) ? store.repair(progress)
                : ((Queue) store).repair(processingTimeout, progress);
        return checked(new LinkedHashMap<>(report.toMap()), store.verify().errors());
    }
}
