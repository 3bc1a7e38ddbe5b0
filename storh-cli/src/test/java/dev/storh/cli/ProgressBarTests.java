package dev.storh.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.progress.Progress;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ProgressBarTests {

    private static Progress at(long done, long total, long bytes, long elapsedMs) {
        return new Progress("verify", done, total, bytes, -1, Duration.ofMillis(elapsedMs), false);
    }

    @Test // a known total: the part done, counts, rate, time left and elapsed
    void frameShowsPercentCountsRateAndTimeLeft() {
        assertThat(ProgressBar.frame("verify doc x", "records", at(0, 50_000, 0, 0), 0))
                .isEqualTo("verify doc x [>                   ]   0.0% 0/50,000 records 0/s 0.0s");
        assertThat(ProgressBar.frame("verify doc x", "records", at(22_600, 50_000, 5_000_000, 2000), 2000))
                .isEqualTo("verify doc x [=========>          ]  45.2% 22,600/50,000 records (4.8 MiB) 11,300/s 2.4s left 2.0s");
        Progress done = new Progress("verify", 50_000, 50_000, 0, -1, Duration.ofMillis(4000), true);
        assertThat(ProgressBar.frame("verify doc x", "records", done, 4000))
                .isEqualTo("verify doc x [====================] 100.0% 50,000/50,000 records 12,500/s 4.0s");
    }

    @Test // an unknown total: the block moves 1 step per redraw and bounces back, counts still shown
    void frameBouncesWhenTheTotalIsUnknown() {
        assertThat(ProgressBar.frame("import doc x", "records", null, 0)).isEqualTo("import doc x [=====               ] 0.0s");
        assertThat(ProgressBar.frame("import doc x", "records", null, 300)).isEqualTo("import doc x [   =====            ] 0.3s");
        assertThat(ProgressBar.frame("import doc x", "records", null, 1500)).isEqualTo("import doc x [               =====] 1.5s");
        assertThat(ProgressBar.frame("import doc x", "records", null, 1600)).isEqualTo("import doc x [              ===== ] 1.6s");
        assertThat(ProgressBar.frame("import doc x", "records", at(10, -1, 0, 3000), 3000))
                .isEqualTo("import doc x [=====               ] 10 records 3/s 3.0s");
    }

    @Test // not on a terminal: a plain sentence
    void lineSaysTheSameInWords() {
        assertThat(ProgressBar.line("verify doc x", "records", at(22_600, 50_000, 0, 2000)))
                .isEqualTo("verify doc x: 45.2% 22,600/50,000 records, 11,300/s, 2.0s elapsed, about 2.4s left");
    }

    @Test // the last frame (100 %) is drawn, then the line erased
    void closingDrawsTheLastFrameThenErasesTheBar() {
        StringWriter text = new StringWriter();
        Progress last = new Progress("verify", 3, 3, 0, -1, Duration.ofMillis(50), true);
        try (ProgressBar bar = ProgressBar.start(ProgressBar.Mode.always, new PrintWriter(text), "stats doc x", "records")) {
            bar.onProgress(at(0, 3, 0, 0));
            bar.onProgress(last);
        }
        String out = text.toString();
        String first = ProgressBar.frame("stats doc x", "records", null, 0);
        String end = ProgressBar.frame("stats doc x", "records", last, 50);
        assertThat(out).startsWith("\r" + first).contains("\r" + end).endsWith("\r" + " ".repeat(end.length()) + "\r");
        assertThat(end).contains("100.0%");
    }

    @Test // plain lines come at the interval while the work runs, not after it
    void linesStyleWritesALineAtEachInterval() throws Exception {
        StringWriter text = new StringWriter();
        try (ProgressBar bar = ProgressBar.start(ProgressBar.Style.LINES, new PrintWriter(text), "export doc x", "records", 20)) {
            bar.onProgress(at(5, 10, 0, 1000));
            for (int i = 0; i < 500 && !text.toString().contains("\n"); i++) {
                Thread.sleep(20);
            }
            bar.onProgress(new Progress("export", 10, 10, 0, -1, Duration.ofMillis(2000), true));
        }
        String first = text.toString().lines().findFirst().orElseThrow();
        assertThat(first).isEqualTo("export doc x: 50.0% 5/10 records, 5/s, 1.0s elapsed, about 1.0s left");
    }

    @Test // the CLI process tests drop these lines from standard error, and only these
    void processTestsRecogniseProgressLines() {
        String line = ProgressBar.line("reindex doc /tmp/app/cities", "records", at(1_900, 3_000, 0, 700));
        assertThat(CliProcess.withoutProgressLines(line + "\nstorh: Corrupt record: x\n")).isEqualTo("storh: Corrupt record: x\n");
        assertThat(CliProcess.withoutProgressLines("storh: took 3s elapsed\n")).isEqualTo("storh: took 3s elapsed\n");
    }

    @Test // tests run with piped output: auto writes plain lines, none for work shorter than the interval
    void autoWritesNothingForShortWorkWithoutATerminal() {
        StringWriter text = new StringWriter();
        try (ProgressBar bar = ProgressBar.start(ProgressBar.Mode.auto, new PrintWriter(text), "stats doc x", "records")) {
            bar.onProgress(at(1, 2, 0, 1));
        }
        assertThat(ProgressBar.stderrIsTerminal()).isFalse();
        assertThat(text.toString()).isEmpty();
    }
}
