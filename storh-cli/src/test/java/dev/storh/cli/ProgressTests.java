package dev.storh.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class ProgressTests {

    @Test
    void theBlockBouncesBetweenTheBracketsAndTheElapsedTimeIsShown() {
        assertThat(Progress.frame("verify doc x", 0)).isEqualTo("verify doc x [=====               ] 0.0s");
        assertThat(Progress.frame("verify doc x", 300)).isEqualTo("verify doc x [   =====            ] 0.3s");
        assertThat(Progress.frame("verify doc x", 1500)).isEqualTo("verify doc x [               =====] 1.5s");
        assertThat(Progress.frame("verify doc x", 1600)).isEqualTo("verify doc x [              ===== ] 1.6s");
        assertThat(Progress.frame("verify doc x", 3000)).isEqualTo("verify doc x [=====               ] 3.0s");
    }

    @Test // the bar erases itself, leaving the terminal line empty
    void closingErasesTheBar() {
        StringWriter text = new StringWriter();
        try (Progress progress = Progress.start(Progress.Mode.always, new PrintWriter(text), "stats doc x")) {
            assertThat(progress).isNotNull();
        }
        String out = text.toString();
        String frame = Progress.frame("stats doc x", 0);
        assertThat(out).startsWith("\r" + frame).endsWith("\r" + " ".repeat(frame.length()) + "\r");
    }

    @Test // tests run with piped output: auto draws nothing
    void autoDrawsNothingWithoutATerminal() {
        StringWriter text = new StringWriter();
        try (Progress progress = Progress.start(Progress.Mode.auto, new PrintWriter(text), "stats doc x")) {
            assertThat(progress).isNotNull();
        }
        assertThat(Progress.stderrIsTerminal()).isFalse();
        assertThat(text.toString()).isEmpty();
    }
}
