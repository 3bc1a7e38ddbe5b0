package dev.storh.doc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.store.CompactReport;
import dev.storh.store.RepairReport;
import dev.storh.store.VerifyReport;
import dev.storh.SharedFiles;
import dev.storh.StorageRecord;
import dev.storh.id.UuidV7;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;

/** verify, repair and crash recovery on real files, the original's fixture and a killed JVM. */
class MaintenanceTest {

    @TempDir
    Path temp;

    @Test
    @SuppressWarnings("unchecked")
    void verifyOfTheFixtureEqualsTheOriginalsReport() throws Exception {
        Path app = SharedFiles.copyPhpFixture(temp);
        Map<String, Object> all = JsonMapper.builder().build().readValue(
                SharedFiles.expectedAnswers().toFile(), Map.class);
        Map<String, Object> expected = (Map<String, Object>) ((Map<String, Object>) all.get("cities")).get("verify");
        try (DocStore cities = DocStore.open(app, "cities")) {
            Map<String, Object> ours = JsonMapper.builder().build().readValue(
                    JsonMapper.builder().build().writeValueAsString(cities.verify().toMap()), Map.class);
            assertThat(ours).isEqualTo(expected);
        }
    }

    @Test
    void aTruncatedRecordIsNamedQuarantinedAndTheRestStaysReadable() throws Exception {
        Path app = SharedFiles.copyPhpFixture(temp);
        try (DocStore pages = DocStore.open(app, "pages")) {
            List<String> ids = pages.ids().toList();
            String victim = ids.get(2);
            Path file = pages.pathForId(victim);
            byte[] bytes = Files.readAllBytes(file);
            Files.write(file, java.util.Arrays.copyOf(bytes, bytes.length / 2));
            VerifyReport<StoreStats> broken = pages.verify();
            assertThat(broken.ok()).isFalse();
            assertThat(broken.errors()).hasSize(2);
            assertThat(broken.errors().get(0)).isEqualTo("Corrupt records: 1");
            assertThat(broken.errors().get(1)).contains(victim).contains(file.toString());
            assertThat(broken.stats().corrupt()).isEqualTo(1);

            Files.writeString(file.resolveSibling(".99999999.abcdef01.7.tmp"), "half a record");
            RepairReport<DocRepair> repair = pages.repair();
            assertThat(repair.details().quarantined()).isEqualTo(1);
            assertThat(repair.details().removedTempFiles()).isEqualTo(1);
            assertThat(repair.details().reindexed().entries()).isEqualTo(ids.size() - 1);
            assertThat(repair.toMap()).containsEntry("ok", true).containsEntry("quarantined", 1L);
            assertThat(app.resolve("pages/.storh/corrupt/" + victim + ".jsonc")).hasBinaryContent(
                    java.util.Arrays.copyOf(bytes, bytes.length / 2));
            assertThat(file).doesNotExist();

            VerifyReport<StoreStats> clean = pages.verify();
            assertThat(clean.errors()).isEmpty();
            assertThat(clean.ok()).isTrue();
            for (String id : ids) {
                if (!id.equals(victim)) {
                    assertThat(pages.get(id)).as(id).isPresent();
                }
            }
            assertThat(pages.get(victim)).isEmpty();
            CompactReport<DocCompact> compacted = pages.compact();
            assertThat(compacted.ok()).isTrue();
            assertThat(compacted.details()).isEqualTo(new DocCompact(ids.size() - 1));
        }
    }

    /**
     * A child JVM puts 10,000 records and prints each id once {@code put} returned; it is killed
     * with SIGKILL midway. Every printed id must be readable after reopening, no temp file may be
     * left and verify must be clean.
     */
    @Test
    void everyPutThatReturnedSurvivesKillDashNine() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                CrashingWriter.class.getName(), temp.toString(), "c", "10000").redirectErrorStream(false).start();
        List<String> acknowledged = new ArrayList<>();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                acknowledged.add(line);
                if (acknowledged.size() == 1500) {
                    child.destroyForcibly();
                    break;
                }
            }
        }
        assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(child.exitValue()).isNotZero();
        assertThat(acknowledged).hasSize(1500);
        // The dead child's marker is still there: opening sweeps its temp files.
        try (Stream<Path> markers = Files.list(temp.resolve("c/.storh/writers"))) {
            assertThat(markers.toList()).hasSize(1);
        }
        try (DocStore store = DocStore.open(temp, "c")) {
            for (String id : acknowledged) {
                StorageRecord r = store.get(id).orElseThrow(() -> new AssertionError("lost " + id));
                assertThat(r.data()).containsKey("n");
            }
            try (Stream<Path> files = Files.walk(temp.resolve("c"))) {
                assertThat(files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".tmp")).toList()).isEmpty();
            }
            try (Stream<Path> markers = Files.list(temp.resolve("c/.storh/writers"))) {
                // The child's marker is gone; only this process's own (it rebuilt the indexes) remains.
                assertThat(markers.map(p -> p.getFileName().toString()).toList())
                        .allMatch(n -> n.startsWith(ProcessHandle.current().pid() + "."));
            }
            VerifyReport<StoreStats> report = store.verify();
            assertThat(report.errors()).isEmpty();
            assertThat(report.stats().records()).isGreaterThanOrEqualTo(1500).isLessThan(10_000);
            assertThat(store.count()).isEqualTo(report.stats().records());
            assertThat(UuidV7.isValid(acknowledged.get(0))).isTrue();
        }
    }

    /** Child process of {@link #everyPutThatReturnedSurvivesKillDashNine}. */
    public static final class CrashingWriter {
        private CrashingWriter() {
        }

        /**
         * @param args root, collection, count
         */
        public static void main(String[] args) {
            try (DocStore store = DocStore.open(Path.of(args[0]), args[1])) {
                store.indexes().field("bucket").sync();
                for (int i = 0; i < Integer.parseInt(args[2]); i++) {
                    StorageRecord r = store.put(Map.of("n", (long) i, "bucket", (long) (i % 7)));
                    System.out.println(r.id());
                    System.out.flush();
                }
            }
        }
    }
}
