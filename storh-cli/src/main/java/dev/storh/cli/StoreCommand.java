package dev.storh.cli;

import dev.storh.progress.ProgressListener;
import dev.storh.store.Store;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * A command on one store ({@code <root> [collection] [engine]}): checks the arguments, opens the
 * store through the store contract, runs the work under the progress bar (fed by the engine's
 * progress listener), closes the store, prints the report and turns its health into the exit code.
 */
abstract class StoreCommand implements Callable<Integer> {

    @Mixin
    StoreArguments arguments;

    @Mixin
    OutputOptions output;

    @Spec
    CommandSpec spec;

    /**
     * @return the engines this command works on
     */
    Set<Engine> engines() {
        return EnumSet.allOf(Engine.class);
    }

    /**
     * @return whether a missing collection folder is created rather than refused
     */
    boolean createsCollection() {
        return false;
    }

    /**
     * Checks the command's own options once the target is known, before anything is opened.
     *
     * @param target the checked target
     * @throws CliUsageException when an option does not fit the target
     */
    void checkOptions(Target target) {
    }

    /**
     * Does the work on the open store, which is closed afterwards.
     *
     * @param store the target, open
     * @param target the checked target
     * @param progress receives the engine's progress, for the bar
     * @return the report and whether the store is healthy
     */
    abstract Outcome run(Store<?, ?, ?> store, Target target, ProgressListener progress);

    @Override
    public final Integer call() {
        String name = spec.name();
        Target target = arguments.resolve(name, engines(), createsCollection());
        checkOptions(target);
        Outcome outcome;
        try (ProgressBar progress = ProgressBar.start(output.progress, spec.commandLine().getErr(),
                name + " " + target.label(), target.engine().handling().unit());
                Store<?, ?, ?> store = target.open()) {
            outcome = run(store, target, progress);
        }
        if (outcome.report() != null) {
            output.print(spec.commandLine().getOut(), outcome.report());
        }
        return outcome.healthy() ? StorhCli.EXIT_OK : StorhCli.EXIT_PROBLEMS;
    }
}
