package dev.storh.cli;

import dev.storh.progress.ProgressListener;
import dev.storh.store.Store;
import dev.storh.store.VerifyReport;
import picocli.CommandLine.Command;

/**
 * {@code storh verify <root> [collection] [doc|log|queue]}: the engine's checks, printed as
 * {@code {ok, errors, stats}}. Unlike the original the exit code
 * says the result: 0 when {@code ok}, 1 when problems were found.
 */
@Command(name = "verify", mixinStandardHelpOptions = true,
        description = {"Check a collection, log or queue and print {ok, errors, stats}.",
            "Exit 0 when ok, 1 when problems were found (fix them with 'repair').",
            "Opening a log or a queue cuts a torn tail first, as the library does on every open."})
final class VerifyCommand extends StoreCommand {

    @Override
    Outcome run(Store<?, ?, ?> store, Target target, ProgressListener progress) {
        VerifyReport<?> report = store.verify(progress);
        return new Outcome(report.toMap(), report.ok());
    }
}
