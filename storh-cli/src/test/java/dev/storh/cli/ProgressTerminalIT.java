package dev.storh.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.storh.doc.DocStore;
import dev.storh.id.UuidV7;
import dev.storh.json.CanonicalJson;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code storh verify} on a 50,000-record collection under a pseudo-terminal ({@code script(1)}
 * from util-linux): standard error is a terminal, so the bar is drawn in place and advances to
 * 100 %.
 */
class ProgressTerminalIT {

    private static final int RECORDS = 50_000;
    private static final Pattern FRAME = Pattern.compile(
            "verify doc \\S+ \\[([=> ]{20})\\] +(\\d+\\.\\d)% ([\\d,]+)/([\\d,]+) records");

    @TempDir
    Path temp;

    @Test
    void verifyDrawsABarThatAdvancesTo100PercentOnATerminal() throws Exception {
        Path script = Path.of("/usr/bin/script");
        assumeTrue(Files.isExecutable(script), "script(1) from util-linux is not installed: no pseudo-terminal to test in");
        Path root = temp.resolve("root");
        try (DocStore cities = DocStore.open(root, "cities")) {
            // Record files as a writer leaves them, without a sync each: building the store takes seconds, not minutes.
            for (int i = 0; i < RECORDS; i++) {
                String id = UuidV7.generate();
                Path file = cities.pathForId(id);
                Files.createDirectories(file.getParent());
                Files.write(file, CanonicalJson.recordBytes(id, Map.of("name", "place " + i, "population", i * 7 % 100_000)));
            }
        }

        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String command = "'" + java + "' -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -jar '" + CliProcess.jar() + "' verify '"
                + root + "' cities";
        Path typescript = temp.resolve("typescript");
        Process process = new ProcessBuilder(script.toString(), "-q", "-f", "-e", "-c", command, typescript.toString())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(temp.resolve("script-stderr.txt").toFile())
                .start();
        // Standard input stays open (a pipe) until the command ends: script(1) ends its session at EOF.
        try (OutputStream stdin = process.getOutputStream()) {
            assertThat(process.waitFor(5, TimeUnit.MINUTES)).as("verify under script(1) ended").isTrue();
        }
        String screen = Files.readString(typescript, StandardCharsets.ISO_8859_1);
        assertThat(process.exitValue()).as(screen).isZero();

        List<Double> percents = new ArrayList<>();
        String last = null;
        for (String frame : screen.split("\r")) {
            Matcher m = FRAME.matcher(frame);
            if (m.find()) {
                percents.add(Double.parseDouble(m.group(2)));
                assertThat(m.group(4)).isEqualTo("50,000");
                last = m.group(0);
            }
        }
        assertThat(percents).as(screen).isNotEmpty().isSorted();
        assertThat(percents.get(percents.size() - 1)).as(screen).isEqualTo(100.0);
        assertThat(last).contains("[====================] 100.0% 50,000/50,000 records");
        assertThat(percents).as("frames between 0 %% and 100 %%: %s", percents).anyMatch(p -> p > 0 && p < 100);
        assertThat(screen).contains("\"ok\": true").contains("\"records\": 50000");
    }
}
