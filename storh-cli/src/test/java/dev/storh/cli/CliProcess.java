package dev.storh.cli;

import dev.storh.json.Jsonc;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs the built jar ({@code target/storh-cli.jar}, from the {@code storh.cli.jar} system property
 * the pom sets) as a separate process, with standard output and error captured to files, so both
 * are pipes as under cron.
 */
final class CliProcess {

    /** The result of one run. */
    record Result(int exit, String out, String err) {

        /**
         * @return standard output parsed as one JSON object
         */
        @SuppressWarnings("unchecked")
        Map<String, Object> json() {
            return (Map<String, Object>) Jsonc.decodeStrict(out);
        }

        @Override
        public String toString() {
            return "exit " + exit + "\n--- stdout\n" + out + "--- stderr\n" + err;
        }
    }

    private static final long TIMEOUT_SECONDS = 60;

    private final Path work;

    /**
     * @param work a folder for captured output
     */
    CliProcess(Path work) {
        this.work = work;
    }

    /**
     * @return the jar under test
     * @throws IllegalStateException when the property is missing or the jar not built
     */
    static Path jar() {
        String property = System.getProperty("storh.cli.jar");
        if (property == null) {
            throw new IllegalStateException("System property storh.cli.jar is not set: run the tests with"
                    + " 'mvn verify' (failsafe, after package)");
        }
        Path jar = Path.of(property);
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("CLI jar not built: " + jar);
        }
        return jar;
    }

    /**
     * @param args the command line after {@code java -jar storh-cli.jar}
     * @return exit code and output
     */
    Result run(String... args) {
        return runWithInput(null, args);
    }

    /**
     * @param stdin a file fed to standard input, or {@code null} for none
     * @param args the command line after {@code java -jar storh-cli.jar}
     * @return exit code and output
     */
    Result runWithInput(Path stdin, String... args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-XX:TieredStopAtLevel=1");
        command.add("-XX:+UseSerialGC");
        command.add("-jar");
        command.add(jar().toString());
        command.addAll(List.of(args));
        try {
            Path out = Files.createTempFile(work, "stdout", ".txt");
            Path err = Files.createTempFile(work, "stderr", ".txt");
            ProcessBuilder builder = new ProcessBuilder(command)
                    .redirectOutput(out.toFile())
                    .redirectError(err.toFile());
            builder.redirectInput(ProcessBuilder.Redirect.from(stdin == null ? nullDevice() : stdin.toFile()));
            Process process = builder.start();
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("storh " + String.join(" ", args) + " did not end within " + TIMEOUT_SECONDS + " s");
            }
            Result result = new Result(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                    withoutProgressLines(Files.readString(err, StandardCharsets.UTF_8)));
            Files.delete(out);
            Files.delete(err);
            return result;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    /**
     * Drops the plain progress lines a long operation writes to a piped standard error every few
     * seconds ({@code verify doc <path>: 45.2% 1,900/3,000 records, ..., 0.7s elapsed, ...}): on a
     * busy machine even the fixture's small stores can take that long, and the tests check the
     * rest of standard error.
     *
     * @param err standard error as written
     * @return it without progress lines
     */
    static String withoutProgressLines(String err) {
        return PROGRESS_LINE.matcher(err).replaceAll("");
    }

    private static final java.util.regex.Pattern PROGRESS_LINE = java.util.regex.Pattern.compile(
            "(?m)^[a-z]+ (doc|log|queue) [^\n]*: [^\n]* elapsed[^\n]*\n");

    private static java.io.File nullDevice() {
        return new java.io.File(System.getProperty("os.name").startsWith("Windows") ? "NUL" : "/dev/null");
    }
}
