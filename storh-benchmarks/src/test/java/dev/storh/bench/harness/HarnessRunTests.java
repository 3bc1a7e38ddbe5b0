package dev.storh.bench.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;

/** Tiny real runs of the harness: the JSON shape, the metric names, the table, the exit codes. */
class HarnessRunTests {

    /** spec/bench.md §3 "doc", in the original's order. */
    static final List<String> DOC_METRICS = List.of("put", "get", "id_first", "id_count", "id_filtered_first",
            "unindexed_first", "stream", "delete", "index_build", "indexed", "indexed_first", "indexed_range",
            "indexed_range_ordered", "indexed_range_ordered_first", "indexed_range_ordered_desc",
            "indexed_range_ordered_desc_first", "indexed_compound_miss", "indexed_compound_miss_count",
            "indexed_compound_count", "indexed_count", "indexed_numeric_count", "indexed_range_count",
            "indexed_range_limit_count", "unindexed_count", "unindexed_limit_count", "full", "reopen", "bulk_put",
            "jsonl_export", "jsonl_import");

    @TempDir
    Path dir;

    private record Run(int code, String out, String err) {
    }

    private static Run harness(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Harness.execute(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test // spec/bench.md §1 output shape, §3 doc metric names
    @SuppressWarnings("unchecked")
    void aDocRunWritesTheOriginalsShapeAndEveryDocMetric() throws Exception {
        Path output = dir.resolve("out/doc.json");
        Path table = dir.resolve("out/doc.txt");
        Run run = harness("--dataset=200", "--engine=doc", "--output=" + output, "--table=" + table,
                "--dir=" + dir.resolve("stores"));
        assertThat(run.code()).as(run.err()).isZero();

        Map<String, Object> doc = JsonMapper.builder().build().readValue(Files.readString(output), Map.class);
        assertThat(new ArrayList<>(doc.keySet())).containsExactly("dataset", "engine", "java", "runtime", "time",
                "cacheValidation", "data", "threads", "repeat", "warmup", "results", "ops");
        assertThat(doc.get("dataset")).isEqualTo(200);
        assertThat(doc.get("engine")).isEqualTo("doc");
        assertThat(doc.get("cacheValidation")).isEqualTo("stat");
        assertThat((Map<String, Object>) doc.get("runtime")).containsKeys("java", "vm", "os", "cpus", "fileSystem");
        Map<String, Map<String, Object>> results = (Map<String, Map<String, Object>>) doc.get("results");
        assertThat(results).containsOnlyKeys("doc");
        assertThat(new ArrayList<>(results.get("doc").keySet())).containsExactlyElementsOf(DOC_METRICS);
        assertThat(results.get("doc").values()).allSatisfy(v -> assertThat(((Number) v).doubleValue()).isPositive());
        Map<String, Map<String, Object>> ops = (Map<String, Map<String, Object>>) doc.get("ops");
        assertThat(ops.get("doc")).containsEntry("put", 200).containsEntry("get", 200).containsEntry("delete", 100)
                .containsEntry("index_build", 100).containsEntry("id_first", 1);

        assertThat(run.out()).contains("dataset 200, engine doc").contains("mode: one cold run")
                .containsPattern("doc\\.put\\s+\\d+\\.\\d{6}\\s+200\\s");
        assertThat(Files.readString(table)).isEqualTo(run.out().substring(0, run.out().indexOf("results: ")));
        try (Stream<Path> left = Files.list(dir.resolve("stores"))) {
            assertThat(left).as("temp stores are deleted").isEmpty();
        }
    }

    @Test // --threads variants and the share of the fsync limit
    @SuppressWarnings("unchecked")
    void threadVariantsAndFsyncSharesShowUp() throws Exception {
        Path queue = dir.resolve("queue.json");
        Run q = harness("--dataset=40", "--engine=queue", "--threads=2", "--output=" + queue,
                "--dir=" + dir.resolve("stores"));
        assertThat(q.code()).as(q.err()).isZero();
        Results r = Results.read(queue);
        assertThat(r.seconds().get("queue")).containsKeys("enqueue", "claim", "complete", "requeue", "bulk_enqueue",
                "bulk_claim", "bulk_complete", "enqueue_t2", "claim_t2", "complete_t2");

        Path probe = dir.resolve("fsync.json");
        Run f = harness("--dataset=20", "--engine=fsync", "--output=" + probe, "--dir=" + dir.resolve("stores"));
        assertThat(f.code()).as(f.err()).isZero();
        Results p = Results.read(probe);
        assertThat(p.seconds().get("fsync")).containsOnlyKeys("append", "new_file");

        r.add("fsync", "append", p.secondsOf("fsync.append"), p.opsOf("fsync.append"));
        String table = ResultsTable.render(r, List.of());
        assertThat(table).contains("share of the raw fsync limit")
                .containsPattern("queue\\.enqueue_t2\\s+\\S+/s\\s+\\S+/s\\s+\\d+%");
    }

    @Test // the mirror section with the original's metric names, against SQLite
    @SuppressWarnings("unchecked")
    void mirrorMeasuresTheOriginalsMetrics() throws Exception {
        Path output = dir.resolve("mirror.json");
        Run run = harness("--dataset=120", "--engine=mirror", "--output=" + output, "--dir=" + dir.resolve("stores"));
        assertThat(run.code()).as(run.err()).isZero();
        Results r = Results.read(output);
        assertThat(r.seconds().get("mirror")).containsKeys("push", "reconcile", "flush", "query", "rebuild", "pull");
        assertThat(r.opsOf("mirror.push")).isEqualTo(120);
        assertThat(run.out()).contains("mirror: SQLite file");
    }

    @Test
    void unknownEngineIsAUsageError() {
        Run run = harness("--engine=sql");
        assertThat(run.code()).isEqualTo(2);
        assertThat(run.err()).contains("Unknown engine 'sql'").contains("usage:");
    }

    @Test
    void repeatModeReportsMediansAfterWarmUp() throws Exception {
        Path output = dir.resolve("uuid.json");
        Run run = harness("--dataset=500", "--engine=uuid", "--repeat=3", "--output=" + output,
                "--dir=" + dir.resolve("stores"));
        assertThat(run.code()).as(run.err()).isZero();
        assertThat(run.err()).contains("warm-up run 1/1").contains("run 3/3");
        assertThat(run.out()).contains("median of 3 run(s) after 1 warm-up run(s)");
        String json = Files.readString(output);
        assertThat(json).contains("\"summary\"").contains("\"monotonic\"").contains("\"runs\"");
    }

    @Test // --data: real payloads plus the five fields the queries use
    void dataFileRowsKeepThePayloadAndAddTheQueryFields() throws Exception {
        Path data = dir.resolve("cities.jsonl");
        Files.writeString(data, "{\"name\":\"Vila\",\"country\":\"AD\"}\n\n{\"name\":\"東京\",\"country\":\"JP\"}\n");
        Rows rows = Rows.fromFile(data, 10);
        assertThat(rows.label()).isEqualTo("cities.jsonl");
        assertThat(rows.row(3)).containsExactly(Map.entry("name", "東京"), Map.entry("country", "JP"),
                Map.entry("kind", "post"), Map.entry("status", "draft"), Map.entry("bucket", 3L),
                Map.entry("slug", "item-3"), Map.entry("publishedAt", Rows.PUBLISHED_START + 3));
        assertThat(Rows.synthetic().row(4)).containsOnlyKeys("kind", "status", "bucket", "slug", "publishedAt");
    }
}
