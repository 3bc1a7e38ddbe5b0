package dev.storh.cli;

import dev.storh.StorageException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The {@code storh} command line ({@code java -jar storh-cli.jar <command> ...}), for cron jobs,
 * deploy checks and offline mending of a storage root (the original's commands, plus what the original
 * lacks: {@code repair}, {@code import}, {@code export}, {@code ls}).
 *
 * <pre>
 * storh stats   &lt;root&gt; [collection] [doc|log|queue]
 * storh verify  &lt;root&gt; [collection] [doc|log|queue]
 * storh compact &lt;root&gt; [collection] [doc|log|queue]
 * storh reindex &lt;root&gt; [collection] [doc]
 * storh repair  &lt;root&gt; [collection] [doc|log|queue] [--processing-timeout=1h]
 * storh import  &lt;root&gt; [collection] [doc] -i &lt;file|-&gt;
 * storh export  &lt;root&gt; [collection] [doc] -o &lt;file|-&gt;
 * storh ls      &lt;root&gt;
 * storh mirror  &lt;install|push|pull|verify|rebuild&gt; &lt;root&gt; [collection] --jdbc-url=URL
 *               [--user=U --password-env=VAR] [--prefix=storh_]
 * </pre>
 *
 * <p>Output: one JSON value on standard output, as the original prints it ({@link CliJson});
 * {@code --format table} for people. Errors go to standard error as {@code storh: <message>}.
 * Exit codes: {@value #EXIT_OK} done and healthy; {@value #EXIT_PROBLEMS} problems found
 * ({@code verify} not ok, corrupt records in {@code stats}) or the operation failed (an exception
 * from the library, e.g. an I/O error or a corrupt record stopping {@code reindex}); {@value #EXIT_USAGE}
 * usage error (unknown command or option, missing root, unknown collection, wrong engine). The
 * original exits 0 for verify problems and unknown commands, and 1 for everything else.
 */
@Command(name = "storh", mixinStandardHelpOptions = true, versionProvider = StorhCli.Version.class,
        description = "Maintenance of a storh storage root: the folder holding collections, logs and queues.",
        subcommands = {StatsCommand.class, VerifyCommand.class, CompactCommand.class, ReindexCommand.class,
            RepairCommand.class, ImportCommand.class, ExportCommand.class, LsCommand.class, MirrorCommand.class,
            CommandLine.HelpCommand.class},
        footerHeading = "%nExit codes:%n",
        footer = {"  0  done; the store is healthy",
            "  1  problems found (verify not ok, corrupt records), or the operation failed",
            "  2  usage error: unknown command or option, missing root,",
            "     unknown collection, wrong engine"})
public final class StorhCli implements Callable<Integer> {

    /** Done; the store is healthy. */
    public static final int EXIT_OK = 0;
    /** Problems found in the store, or the operation failed. */
    public static final int EXIT_PROBLEMS = 1;
    /** Usage error: unknown command or option, missing root, unknown collection, wrong engine. */
    public static final int EXIT_USAGE = 2;

    @Spec
    CommandSpec spec;

    /**
     * Runs the command line and exits the JVM with its exit code.
     *
     * @param args the command and its arguments
     */
    public static void main(String[] args) {
        System.exit(execute(new PrintWriter(System.out, true), new PrintWriter(System.err, true), args));
    }

    /**
     * Runs the command line without exiting.
     *
     * @param out standard output: reports
     * @param err standard error: messages, usage, progress
     * @param args the command and its arguments
     * @return the exit code: {@link #EXIT_OK}, {@link #EXIT_PROBLEMS} or {@link #EXIT_USAGE}
     */
    public static int execute(PrintWriter out, PrintWriter err, String... args) {
        CommandLine cli = new CommandLine(new StorhCli());
        cli.setOut(out);
        cli.setErr(err);
        cli.setCaseInsensitiveEnumValuesAllowed(true);
        cli.setParameterExceptionHandler(StorhCli::usageError);
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> failure(e, commandLine));
        int code = cli.execute(args);
        out.flush();
        err.flush();
        return code;
    }

    /** No command: the usage on standard error, exit {@value #EXIT_USAGE} (the original exits 0). */
    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return EXIT_USAGE;
    }

    private static int usageError(ParameterException e, String[] args) {
        CommandLine cmd = e.getCommandLine();
        PrintWriter err = cmd.getErr();
        err.println("storh: " + e.getMessage());
        UnmatchedArgumentException.printSuggestions(e, err);
        String path = cmd.getCommandSpec().qualifiedName();
        err.print("Usage: " + cmd.getHelp().synopsis(0));
        err.println("Try '" + path + " --help' for more information.");
        err.flush();
        return EXIT_USAGE;
    }

    private static int failure(Exception e, CommandLine cmd) {
        PrintWriter err = cmd.getErr();
        if (e instanceof CliUsageException) {
            err.println("storh: " + e.getMessage());
            err.println("Try '" + cmd.getCommandSpec().qualifiedName() + " --help' for more information.");
            err.flush();
            return EXIT_USAGE;
        }
        err.println("storh: " + describe(e));
        err.flush();
        return EXIT_PROBLEMS;
    }

    /**
     * @return the message, with the cause's when it adds something; the class name only for
     *     unexpected exceptions (a bug, not an operator's problem)
     */
    private static String describe(Throwable e) {
        String message = e instanceof StorageException || e instanceof UncheckedIOException
                ? String.valueOf(e.getMessage()) : e.toString();
        Throwable cause = e.getCause();
        if (cause != null && cause.getMessage() != null && !message.contains(cause.getMessage())) {
            message += " (" + cause.getMessage() + ")";
        }
        return message;
    }

    /** The version from the jar's manifest. */
    static final class Version implements IVersionProvider {

        @Override
        public String[] getVersion() {
            String version = StorhCli.class.getPackage().getImplementationVersion();
            return new String[] {"storh " + (version == null ? "(development build)" : version)};
        }
    }
}
