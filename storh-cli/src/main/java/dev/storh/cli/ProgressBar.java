package dev.storh.cli;

import dev.storh.progress.Progress;
import dev.storh.progress.ProgressListener;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.concurrent.TimeUnit;

/**
 * Shows the progress of a store operation on standard error, fed by the engine's
 * {@link ProgressListener} snapshots.
 *
 * <ul>
 *   <li>On a terminal, a bar redrawn in place every {@value #REDRAW_MS} ms with the part done, the
 *       counts, the rate and the time left, e.g.
 *       {@code verify doc app/cities [=========>          ]  45.2% 22,600/50,000 records 11,300/s 2.0s left 1.9s};
 *       an activity bar bouncing from side to side when the total is not known. The last frame
 *       (100 %) is drawn, then the line erased, so the terminal is left as it was.</li>
 *   <li>Not on a terminal (cron mail, logs), one plain line every {@value #LINE_INTERVAL_MS} ms,
 *       e.g. {@code verify doc app/cities: 45.2% 22,600/50,000 records, 11,300/s, 1.9s elapsed, about 2.0s left};
 *       nothing when the work ends sooner.</li>
 * </ul>
 * {@link Mode#auto} picks the bar when a console is attached ({@link System#console()}) and
 * standard error is a terminal, else the lines.
 *
 * <p>Drawn by one daemon thread; the engine's thread only stores the latest snapshot.
 * {@link #close()} stops the thread and waits for it.
 */
final class ProgressBar implements ProgressListener, AutoCloseable {

    /** When to draw. */
    enum Mode {
        /** The bar on a terminal, plain lines otherwise. */
        auto,
        /** The bar, even into a pipe. */
        always,
        /** Nothing. */
        never
    }

    /** What is drawn. */
    enum Style {
        /** A bar redrawn in place. */
        BAR,
        /** A plain line now and then. */
        LINES,
        /** Nothing. */
        NONE
    }

    static final long REDRAW_MS = 100;
    static final long LINE_INTERVAL_MS = 5000;
    private static final int BAR_WIDTH = 20;
    private static final int BLOCK = 5;

    private final Style style;
    private final PrintWriter err;
    private final String label;
    private final String unit;
    private final long intervalMs;
    private final long startNanos = System.nanoTime();
    private volatile Progress latest;
    private Thread painter;
    private volatile boolean running = true;
    private int lastWidth;

    private ProgressBar(Style style, PrintWriter err, String label, String unit, long intervalMs) {
        this.style = style;
        this.err = err;
        this.label = label;
        this.unit = unit;
        this.intervalMs = intervalMs;
    }

    /**
     * @param mode when to draw
     * @param err standard error
     * @param label what runs, e.g. {@code "verify doc app/cities"}
     * @param unit what the counts count, e.g. {@code "records"}
     * @return a running bar (or one drawing nothing); pass it to the engine as its listener and
     *     close it when the work ends
     */
    static ProgressBar start(Mode mode, PrintWriter err, String label, String unit) {
        Style style = switch (mode) {
            case always -> Style.BAR;
            case never -> Style.NONE;
            case auto -> stderrIsTerminal() ? Style.BAR : Style.LINES;
        };
        return start(style, err, label, unit, style == Style.BAR ? REDRAW_MS : LINE_INTERVAL_MS);
    }

    /**
     * @param style what to draw
     * @param err where to draw it
     * @param label what runs
     * @param unit what the counts count
     * @param intervalMs time between two frames or lines
     * @return a running bar
     */
    static ProgressBar start(Style style, PrintWriter err, String label, String unit, long intervalMs) {
        ProgressBar bar = new ProgressBar(style, err, label, unit, intervalMs);
        if (style == Style.NONE) {
            return bar;
        }
        if (style == Style.BAR) {
            bar.draw(frame(label, unit, null, 0));
        }
        bar.painter = new Thread(bar::paintLoop, "storh-progress");
        bar.painter.setDaemon(true);
        bar.painter.start();
        return bar;
    }

    @Override
    public void onProgress(Progress progress) {
        latest = progress;
    }

    /**
     * One frame of the bar, without line control characters.
     *
     * @param label what runs
     * @param unit what the counts count
     * @param p the latest snapshot, or {@code null} before the first
     * @param elapsedMs time since the start (drives the activity bar)
     * @return the frame
     */
    static String frame(String label, String unit, Progress p, long elapsedMs) {
        OptionalDouble fraction = p == null ? OptionalDouble.empty() : p.fraction();
        StringBuilder s = new StringBuilder(label).append(" [");
        if (fraction.isPresent()) {
            int filled = (int) Math.floor(fraction.getAsDouble() * BAR_WIDTH);
            s.append("=".repeat(filled));
            if (filled < BAR_WIDTH) {
                s.append('>').append(" ".repeat(BAR_WIDTH - filled - 1));
            }
            s.append("] ").append(String.format(Locale.ROOT, "%5.1f%%", percent(fraction.getAsDouble())));
        } else {
            int span = BAR_WIDTH - BLOCK;
            int step = (int) ((elapsedMs / REDRAW_MS) % (2L * span));
            int offset = step <= span ? step : 2 * span - step;
            s.append(" ".repeat(offset)).append("=".repeat(BLOCK)).append(" ".repeat(span - offset)).append(']');
        }
        if (p != null) {
            s.append(' ').append(counts(p, unit)).append(' ').append(rate(p));
            p.remaining().filter(left -> !p.finished()).ifPresent(left -> s.append(' ').append(seconds(left)).append(" left"));
        }
        s.append(' ').append(seconds(p == null ? Duration.ofMillis(elapsedMs) : p.elapsed()));
        return s.toString();
    }

    /**
     * One plain progress line, without its line end.
     *
     * @param label what runs
     * @param unit what the counts count
     * @param p the latest snapshot
     * @return the line
     */
    static String line(String label, String unit, Progress p) {
        StringBuilder s = new StringBuilder(label).append(": ");
        p.fraction().ifPresent(f -> s.append(String.format(Locale.ROOT, "%.1f%% ", percent(f))));
        s.append(counts(p, unit)).append(", ").append(rate(p)).append(", ").append(seconds(p.elapsed()))
                .append(" elapsed");
        p.remaining().ifPresent(left -> s.append(", about ").append(seconds(left)).append(" left"));
        return s.toString();
    }

    private static double percent(double fraction) {
        return Math.floor(fraction * 1000) / 10;
    }

    private static String counts(Progress p, String unit) {
        String done = String.format(Locale.ROOT, "%,d", p.done());
        String of = p.total() >= 0 ? String.format(Locale.ROOT, "/%,d", p.total()) : "";
        String bytes = p.bytes() > 0 ? " (" + Table.humanBytes(p.bytes()) + ")" : "";
        return done + of + " " + unit + bytes;
    }

    private static String rate(Progress p) {
        double secs = p.elapsed().toNanos() / 1e9;
        long perSecond = secs <= 0 ? 0 : Math.round(p.done() / secs);
        return String.format(Locale.ROOT, "%,d/s", perSecond);
    }

    private static String seconds(Duration d) {
        return String.format(Locale.ROOT, "%.1fs", d.toMillis() / 1000.0);
    }

    /**
     * @return whether a console is attached and file descriptor 2 is a terminal
     */
    static boolean stderrIsTerminal() {
        if (System.console() == null) {
            return false;
        }
        Path fd2 = Path.of("/proc/self/fd/2");
        if (Files.isSymbolicLink(fd2)) {
            try {
                String target = Files.readSymbolicLink(fd2).toString();
                return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty") || target.equals("/dev/console");
            } catch (IOException | UnsupportedOperationException e) {
                return false;
            }
        }
        // No /proc (e.g. macOS): ask test(1), which inherits our standard error.
        try {
            Process test = new ProcessBuilder("sh", "-c", "test -t 2")
                    .redirectInput(ProcessBuilder.Redirect.PIPE)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.INHERIT)
                    .start();
            test.getOutputStream().close();
            return test.waitFor(2, TimeUnit.SECONDS) && test.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private long elapsedMs() {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
    }

    private void paintLoop() {
        while (running) {
            try {
                Thread.sleep(intervalMs);
            } catch (InterruptedException e) {
                return;
            }
            if (style == Style.BAR) {
                draw(frame(label, unit, latest, elapsedMs()));
            } else {
                Progress p = latest;
                if (p != null && !p.finished()) {
                    printLine(line(label, unit, p));
                }
            }
        }
    }

    private synchronized void draw(String text) {
        if (!running) {
            return;
        }
        err.print('\r' + text + " ".repeat(Math.max(0, lastWidth - text.length())));
        err.flush();
        lastWidth = text.length();
    }

    private synchronized void printLine(String text) {
        if (running) {
            err.println(text);
            err.flush();
        }
    }

    /** Draws the last frame (100 % when the work finished), erases the bar and stops drawing. */
    @Override
    public void close() {
        if (style == Style.NONE) {
            return;
        }
        synchronized (this) {
            Progress last = latest;
            if (style == Style.BAR) {
                if (last != null) {
                    draw(frame(label, unit, last, elapsedMs()));
                }
                err.print('\r' + " ".repeat(lastWidth) + '\r');
                err.flush();
            }
            running = false;
        }
        painter.interrupt();
        try {
            painter.join(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
