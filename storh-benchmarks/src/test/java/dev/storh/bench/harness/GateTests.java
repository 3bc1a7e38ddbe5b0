package dev.storh.bench.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Compare, gate and median over real results files ({@code spec/bench.md} §1 compare.php, gate.php). */
class GateTests {

    @TempDir
    Path dir;

    private Path write(String name, double put, double append, Double recover) throws Exception {
        Results r = new Results();
        r.add("doc", "put", put, 1000);
        r.add("log", "append", append, 1000);
        if (recover != null) {
            r.add("recovery", "recover", recover, 1000);
        }
        Path file = dir.resolve(name);
        Files.writeString(file, r.toJson(Map.of("dataset", 1000, "engine", "all")));
        return file;
    }

    private record Run(int code, String out, String err) {
    }

    private static Run harness(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Harness.execute(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void thresholdsReadAsPercentOrTimes() {
        assertThat(Gate.parseThreshold("400%")).isEqualTo(400);
        assertThat(Gate.parseThreshold("400")).isEqualTo(400);
        assertThat(Gate.parseThreshold("5x")).isEqualTo(400);
        assertThat(Gate.parseThreshold("1.5X")).isEqualTo(50);
        assertThatThrownBy(() -> Gate.parseThreshold("fast")).hasMessageContaining("'fast'");
        assertThatThrownBy(() -> Gate.parseThreshold("0.5x")).hasMessageContaining("must not be negative");
    }

    @Test
    void gatePassesWithinTheThresholdAndFailsPastIt() throws Exception {
        Path base = write("base.json", 1.0, 0.5, 0.1);
        Path ok = write("ok.json", 4.9, 0.1, 0.1);
        Path slow = write("slow.json", 5.1, 0.5, 0.1);
        List<String> metrics = List.of("doc.put", "log.append", "recovery.recover");

        Gate.Verdict pass = Gate.check(Results.read(base), Results.read(ok), metrics, 400);
        assertThat(pass.passed()).isTrue();
        assertThat(pass.lines()).extracting(Gate.Line::status).containsOnly(Gate.Status.OK);
        assertThat(pass.lines().get(0).ratio()).isEqualTo(4.9);

        Gate.Verdict fail = Gate.check(Results.read(base), Results.read(slow), metrics, 400);
        assertThat(fail.passed()).isFalse();
        assertThat(fail.lines().get(0).status()).isEqualTo(Gate.Status.REGRESSED);
        assertThat(fail.render()).contains("doc.put").contains("REGRESSED")
                .endsWith("FAIL (3 tracked metrics)\ngate: 2 passed, 1 failed\n");

        assertThat(harness("gate", "--baseline=" + base, "--current=" + ok, "--threshold=5x",
                "--metrics=doc.put,log.append,recovery.recover").code()).isZero();
        Run failed = harness("gate", "--baseline=" + base, "--current=" + slow, "--threshold=5x",
                "--metrics=doc.put,log.append");
        assertThat(failed.code()).isEqualTo(1);
        assertThat(failed.out()).contains("x5.10  REGRESSED");
    }

    @Test
    void aMetricFailsOnlyPastBothTheRatioAndTheAbsoluteFloor() throws Exception {
        Path base = write("base.json", 1.0, 0.000010, 0.000010);
        // log.append 30x slower but only 0.29 ms more; recovery 60x slower and 0.59 ms more
        Path jitter = write("jitter.json", 1.0, 0.000300, 0.000600);
        List<String> metrics = List.of("doc.put", "log.append", "recovery.recover");

        Gate.Verdict floored = Gate.check(Results.read(base), Results.read(jitter), metrics, 400, 0.0005);
        assertThat(floored.lines()).extracting(Gate.Line::status)
                .containsExactly(Gate.Status.OK, Gate.Status.OK, Gate.Status.REGRESSED);
        assertThat(floored.render()).contains("over 0.500 ms more");
        assertThat(Gate.check(Results.read(base), Results.read(jitter), metrics, 400).lines())
                .extracting(Gate.Line::status)
                .containsExactly(Gate.Status.OK, Gate.Status.REGRESSED, Gate.Status.REGRESSED);

        assertThat(harness("gate", "--baseline=" + base, "--current=" + jitter, "--floor=1ms",
                "--metrics=doc.put,log.append,recovery.recover").code()).isZero();
        Run defaultFloor = harness("gate", "--baseline=" + base, "--current=" + jitter,
                "--metrics=doc.put,log.append,recovery.recover");
        assertThat(defaultFloor.code()).isEqualTo(1);
        assertThat(defaultFloor.out()).contains("gate: 2 passed, 1 failed");
        assertThat(Gate.parseFloor("0.5ms")).isEqualTo(0.0005);
        assertThat(Gate.parseFloor("250us")).isEqualTo(0.00025);
        assertThat(Gate.parseFloor("2s")).isEqualTo(2.0);
        assertThat(Gate.parseFloor("0.1")).isEqualTo(0.1);
        assertThatThrownBy(() -> Gate.parseFloor("soon")).hasMessageContaining("'soon'");
        assertThatThrownBy(() -> Gate.parseFloor("-1ms")).hasMessageContaining("must not be negative");
    }

    @Test
    void aMetricMissingFromTheRunFailsAndOneMissingFromTheBaselineIsSkipped() throws Exception {
        Path withRecover = write("with.json", 1.0, 1.0, 0.1);
        Path without = write("without.json", 1.0, 1.0, null);
        List<String> metrics = List.of("doc.put", "recovery.recover");
        Gate.Verdict missing = Gate.check(Results.read(withRecover), Results.read(without), metrics, 400);
        assertThat(missing.passed()).isFalse();
        assertThat(missing.lines().get(1).status()).isEqualTo(Gate.Status.MISSING);
        Gate.Verdict newMetric = Gate.check(Results.read(without), Results.read(withRecover), metrics, 400);
        assertThat(newMetric.passed()).isTrue();
        assertThat(newMetric.lines().get(1).status()).isEqualTo(Gate.Status.NO_BASELINE);
    }

    @Test
    void compareListsEveryMetricOfBothFilesWithItsChange() throws Exception {
        Path base = write("base.json", 1.0, 0.5, null);
        Path current = write("current.json", 1.5, 0.25, 0.1);
        Run run = harness("compare", base.toString(), current.toString());
        assertThat(run.code()).isZero();
        assertThat(run.out()).containsPattern("doc\\.put\\s+1\\.000000s\\s+1\\.500000s\\s+\\+50\\.0%")
                .containsPattern("log\\.append\\s+0\\.500000s\\s+0\\.250000s\\s+-50\\.0%")
                .containsPattern("recovery\\.recover\\s+-\\s+0\\.100000s\\s+new");
    }

    @Test
    void compareGivesEachSpeedupTheSlowerMetricsAndTheGeometricMean() throws Exception {
        Path base = write("base.json", 1.0, 0.5, null);
        Path current = write("current.json", 4.0, 0.125, 0.1);
        Run run = harness("compare", base.toString(), current.toString());
        assertThat(run.out()).containsPattern("doc\\.put\\s+1\\.000000s\\s+4\\.000000s\\s+\\+300\\.0%\\s+0\\.25x")
                .containsPattern("log\\.append\\s+0\\.500000s\\s+0\\.125000s\\s+-75\\.0%\\s+4\\.00x")
                .contains("2 metrics in both: current faster on 1, slower on 1; geometric mean speedup 1.00x")
                .contains("slower: doc.put");
    }

    @Test // the original's own results files have results but no ops
    void readsAFileWithoutOpsAsTheOriginalWritesIt() throws Exception {
        Path php = dir.resolve("php.json");
        Files.writeString(php, "{\"dataset\":1000,\"engine\":\"all\",\"php\":\"8.3.0\",\"time\":\"x\","
                + "\"results\":{\"doc\":{\"put\":0.5,\"get\":0.001}}}");
        Results r = Results.read(php);
        assertThat(r.secondsOf("doc.put")).isEqualTo(0.5);
        assertThat(r.opsOf("doc.put")).isEqualTo(1);
        assertThat(r.secondsOf("doc.nope")).isNull();
    }

    @Test
    void medianMergesRunsFromSeparateProcesses() throws Exception {
        Path a = write("a.json", 1.0, 0.3, 0.1);
        Path b = write("b.json", 3.0, 0.1, 0.2);
        Path c = write("c.json", 2.0, 0.2, 0.9);
        Path merged = dir.resolve("median.json");
        assertThat(harness("median", "--output=" + merged, a.toString(), b.toString(), c.toString()).code()).isZero();
        Results m = Results.read(merged);
        assertThat(m.secondsOf("doc.put")).isEqualTo(2.0);
        assertThat(m.secondsOf("log.append")).isEqualTo(0.2);
        assertThat(m.secondsOf("recovery.recover")).isEqualTo(0.2);
        assertThat(m.opsOf("doc.put")).isEqualTo(1000);
        assertThat(Files.readString(merged)).contains("\"repeat\" : 3").contains("\"summary\"");
    }

    @Test
    void badGateUsageExitsTwo() throws Exception {
        Path base = write("base.json", 1.0, 0.5, null);
        assertThat(harness("gate", "--baseline=" + base).code()).isEqualTo(2);
        assertThat(harness("gate", "--baseline=" + base, "--current=" + dir.resolve("absent.json")).code())
                .isNotZero();
        assertThat(harness("compare", base.toString()).code()).isEqualTo(2);
    }
}
