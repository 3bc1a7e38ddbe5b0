package dev.storh.log;

import static dev.storh.log.LogTestSupport.id;
import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.StorageRecord;
import dev.storh.store.VerifyReport;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Other JVMs on the same log: interleaved appends (statement 15) and a kill -9 during compaction. */
class SegmentedLogProcessTest {

    @TempDir
    Path root;

    private Process child(String... args) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java, "-Xshare:auto", "-XX:TieredStopAtLevel=1", "-cp",
                System.getProperty("java.class.path"), LogChildProcess.class.getName()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectErrorStream(true).start();
    }

    @Test // statement 15, and W1: a live instance sees the other processes' records without reopening
    void fourProcessesAppendTwentyEachAndNothingIsLost() throws Exception {
        try (SegmentedLog parent = SegmentedLog.open(root, "events", LogTestSupport.opts(16384, 64))) {
            parent.put(Map.of("writer", "parent", "i", 0L));
            List<Process> children = new ArrayList<>();
            for (int c = 0; c < 4; c++) {
                children.add(child("append", root.toString(), "events", "2048", "20", "child" + c));
            }
            for (int i = 1; i < 20; i++) {
                parent.put(Map.of("writer", "parent", "i", (long) i));
            }
            for (Process p : children) {
                assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
                assertThat(p.exitValue()).as(new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).isZero();
            }
            assertThat(parent.count()).isEqualTo(100);
            Map<Object, Long> perWriter;
            try (Stream<StorageRecord> s = parent.stream()) {
                perWriter = s.collect(Collectors.groupingBy(r -> r.data().get("writer"), Collectors.counting()));
            }
            assertThat(perWriter).containsEntry("parent", 20L).containsEntry("child0", 20L).containsEntry("child3", 20L);
            assertThat(parent.verify().ok()).isTrue();
        }
        try (SegmentedLog reopened = SegmentedLog.open(root, "events")) {
            assertThat(reopened.count()).isEqualTo(100);
            assertThat(reopened.verify().ok()).isTrue();
        }
    }

    @Test
    void killingAChildDuringCompactionLeavesTheLogIntact() throws Exception {
        Map<String, Object> expected = new HashMap<>();
        SegmentedLogOptions small = LogTestSupport.opts(2048, 4);
        try (SegmentedLog log = SegmentedLog.open(root, "events", small)) {
            List<Map<String, ?>> rows = new ArrayList<>();
            for (int i = 0; i < 3000; i++) {
                rows.add(Map.of("id", id(i), "data", Map.of("i", (long) i, "pad", "p".repeat(40))));
            }
            log.appendMany(rows);
            for (int i = 0; i < 3000; i += 3) {
                log.delete(id(i));
            }
            for (int i = 1; i < 3000; i += 3) {
                log.put(Map.of("i", (long) -i), id(i));
            }
            try (Stream<StorageRecord> s = log.stream()) {
                s.forEach(r -> expected.put(r.id(), r.data().get("i")));
            }
        }
        assertThat(expected).hasSize(2000);
        long uncommittedSeen = 0; // compaction output the kill left behind before its manifest swap
        for (long delayMs : new long[] {150, 400}) {
            Process p = child("compact-loop", root.toString(), "events", "2048");
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            assertThat(out.readLine()).isEqualTo("compacting");
            Thread.sleep(delayMs);
            p.destroyForcibly();
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
            Manifest.Data before = Manifest.read(dev.storh.fs.LocalFiles.at(root.resolve("events")));
            Set<String> committed = new java.util.HashSet<>();
            before.sealed().forEach(e -> committed.add((String) e.get("file")));
            try (Stream<Path> files = Files.list(root.resolve("events/segments"))) {
                uncommittedSeen += files.map(f -> f.getFileName().toString())
                        .filter(n -> n.startsWith("compact-") && n.endsWith(".ndjson") && !committed.contains(n)).count();
            }
            try (SegmentedLog log = SegmentedLog.open(root, "events", small)) {
                Map<String, Object> actual = new HashMap<>();
                try (Stream<StorageRecord> s = log.stream()) {
                    s.forEach(r -> assertThat(actual.put(r.id(), r.data().get("i"))).isNull());
                }
                assertThat(actual).isEqualTo(expected);
                VerifyReport<LogStats> report = log.verify();
                assertThat(report.errors()).isEmpty();
                assertThat(report.ok()).isTrue();
                Set<String> referenced = new java.util.HashSet<>();
                log.state().sealed.forEach(s -> {
                    referenced.add(s.file);
                    referenced.add(s.index);
                });
                try (Stream<Path> files = Files.list(root.resolve("events/segments"))) {
                    assertThat(files.map(f -> f.getFileName().toString()).filter(LogFiles::isCompactFile))
                            .allSatisfy(n -> assertThat(referenced).contains(n));
                }
            }
        }
        assertThat(uncommittedSeen).as("a kill landed before a manifest swap").isPositive();
    }
}
