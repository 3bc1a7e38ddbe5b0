package dev.storh.cli;

import dev.storh.SharedFiles;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command line in process ({@link StorhCli#execute}): help of every command and the usage
 * errors, which need no jar. {@code StorhCliIT} runs the real jar.
 */
class StorhCliTests {

    private static final List<String> COMMANDS = List.of("stats", "verify", "compact", "reindex", "repair", "import",
            "export", "ls", "mirror");

    @TempDir
    Path temp;

    private Path root;

    /** Output of one in-process run. */
    private record Run(int exit, String out, String err) {
    }

    @BeforeEach
    void copySmallCollections() {
        root = SharedFiles.copyPhpCollections(temp.resolve("root"), "pages", "events", "jobs");
    }

    @Test // issue 9: --help on every command
    void everyCommandHasHelpOnStdout() {
        for (String command : COMMANDS) {
            Run help = run(command, "--help");
            assertThat(help.exit()).as(command).isZero();
            assertThat(help.err()).isEmpty();
            assertThat(help.out()).startsWith("Usage: storh " + command + " ").contains("--format=json|table")
                    .contains("-h, --help");
            Run viaHelp = run("help", command);
            assertThat(viaHelp.exit()).isZero();
            assertThat(viaHelp.out()).isEqualTo(help.out());
        }
        Run top = run("--help");
        assertThat(top.exit()).isZero();
        assertThat(top.out()).contains(COMMANDS.stream().map(c -> "  " + c + " ").toList())
                .contains("Exit codes:", "  0  done; the store is healthy", "  2  usage error");
    }

    @Test // spec/cli.md §6 C5: an unknown or missing command is a usage error, not help with exit 0
    void unknownOrMissingCommandsAreUsageErrors() {
        assertUsage(run("stat", root.toString()), "Unmatched arguments from index 0: 'stat'");
        assertThat(run("stat", root.toString()).err()).contains("Did you mean: storh stats?");
        Run none = run();
        assertThat(none.exit()).isEqualTo(2);
        assertThat(none.err()).startsWith("Usage: storh");
    }

    @Test // spec/cli.md §6 C6: extra arguments are refused
    void extraArgumentsAreRefused() {
        assertUsage(run("stats", root.toString(), "pages", "doc", "extra"), "Unmatched argument at index 4: 'extra'");
    }

    @Test
    void theRootMustBeAnExistingDirectory() throws IOException {
        Path file = Files.writeString(temp.resolve("afile"), "x");
        assertUsage(run("verify", file.toString()), "Storage root is not a directory: " + file);
        assertUsage(run("ls", temp.resolve("nope").toString()), "Storage root not found: " + temp.resolve("nope"));
        assertUsage(run("stats", " "), "Missing storage root");
        assertUsage(run("stats"), "Missing required parameter: '<root>'");
    }

    @Test // spec/cli.md §1: engine words are exact; §6 C4: collection names stay under the root
    void engineWordsAndCollectionNamesAreChecked() {
        assertUsage(run("stats", root.toString(), "jobs", "nope"), "Unknown engine: nope (expected doc, log or queue)");
        assertUsage(run("stats", root.toString(), "jobs", "QUEUE"), "Unknown engine: QUEUE");
        assertUsage(run("stats", root.toString(), "../root"), "Invalid collection name '../root'");
        assertUsage(run("stats", root.toString(), ""), "Invalid collection name '': it is empty.");
        assertUsage(run("stats", root.toString(), "/etc"), "it must be relative to the root");
    }

    @Test
    void commandsRefuseEnginesTheyDoNotWorkOn() {
        assertUsage(run("export", root.toString(), "jobs", "queue", "-o", "x.jsonl"),
                "'export' works on document collections only, not on a queue (engine 'queue').");
        assertUsage(run("import", root.toString(), "events", "-i", "x.jsonl"),
                "'import' works on document collections only, not on a segmented log");
        assertUsage(run("repair", root.toString(), "pages", "--processing-timeout", "1h"),
                "--processing-timeout applies to queues only; collection 'pages' under root " + root
                        + " is a document collection.");
        assertUsage(run("repair", root.toString(), "jobs", "--processing-timeout", "soon"), "Invalid duration: soon");
        assertUsage(run("verify", root.toString(), "jobs", "log"), "Wrong engine for collection 'jobs' under root "
                + root + ": " + root.resolve("jobs") + " is a queue (queue.log), not a segmented log. Run with engine 'queue'.");
    }

    @Test // spec/cli.md §6 C3: a folder holding two engines needs the engine named
    void aFolderWithTwoEnginesOrNoneNeedsTheEngineNamed() throws IOException {
        Files.createDirectories(root.resolve("pages/segments"));
        assertUsage(run("stats", root.toString(), "pages"), "holds the files of more than one engine");
        assertThat(run("stats", root.toString(), "pages", "doc").exit()).isZero();

        Files.createDirectories(root.resolve("empty"));
        assertUsage(run("stats", root.toString(), "empty"), "Cannot tell the engine of collection 'empty'");
    }

    @Test
    void missingImportFileAndDirectoryExportTargetAreUsageErrors() throws IOException {
        assertUsage(run("import", root.toString(), "pages", "-i", temp.resolve("none.jsonl").toString()),
                "Import file not found: " + temp.resolve("none.jsonl"));
        assertUsage(run("export", root.toString(), "pages", "-o", temp.toString()), "Export file is a directory: " + temp);
        assertUsage(run("import", root.toString(), "pages"), "Missing required option: '--input=<file>'");
        assertThat(run("import", root.toString(), "new", "-i", Files.writeString(temp.resolve("one.jsonl"),
                "{\"a\":1}\n").toString()).out()).isEqualTo("{\n    \"imported\": 1,\n    \"records\": 1\n}\n");
    }

    // ------------------------------------------------------------------ helpers

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = StorhCli.execute(new PrintWriter(out), new PrintWriter(err), args);
        return new Run(exit, out.toString(), err.toString());
    }

    private static void assertUsage(Run run, String message) {
        assertThat(run.exit()).as(run.toString()).isEqualTo(2);
        assertThat(run.out()).as(run.toString()).isEmpty();
        assertThat(run.err()).as(run.toString()).startsWith("storh: ").contains(message);
    }
}
