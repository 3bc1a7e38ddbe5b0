package dev.storh.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * An activity bar on standard error while a store operation runs, e.g.
 * {@code verify doc app/cities [     =====          ] 2.4s}, redrawn in place every
 * {@value #REDRAW_MS} ms and erased when the operation ends, so the terminal is left as it was.
 *
 * <p>The engines' maintenance calls report no intermediate counts, so the bar shows that work goes
 * on and for how long, not a percentage. It is drawn only for a person: in {@link Mode#auto} when a
 * console is attached ({@link System#console()}) and standard error is a terminal; never when
 * standard error is piped or redirected (cron mail, logs, tests).
 *
 * <p>Drawn by one daemon thread; {@link #close()} stops it and waits for it. Not for use by
 * several threads.
 */
final class Progress implements AutoCloseable {

    /** When to draw. */
    enum Mode {
        /** Only when standard error is a terminal and a console is attached. */
        auto,
        /** Always, even into a pipe. */
        always,
        /** Never. */
        never
    }

    static final long REDRAW_MS = 100;
    private static final int BAR_WIDTH = 20;
    private static final int BLOCK = 5;
    private static final Progress NONE = new Progress(null, null);

    private final PrintWriter err;
    private final String label;
    private final long startNanos = System.nanoTime();
    private Thread painter;
    private volatile boolean running = true;
    private int lastWidth;

    private Progress(PrintWriter err, String label) {
        this.err = err;
        this.label = label;
    }

    /**
     * @param mode when to draw
     * @param err standard error
     * @param label what runs, e.g. {@code "verify doc app/cities"}
     * @return a running bar, or one that draws nothing; close it when the work ends
     */
    static Progress start(Mode mode, PrintWriter err, String label) {
        boolean draw = mode == Mode.always || (mode == Mode.auto && stderrIsTerminal());
        if (!draw) {
            return NONE;
        }
        Progress p = new Progress(err, label);
        p.draw(frame(label, 0));
        p.painter = new Thread(p::paintLoop, "storh-progress");
        p.painter.setDaemon(true);
        p.painter.start();
        return p;
    }

    /**
     * @param elapsedMs time since the start
     * @param label what runs
     * @return one frame, without line control characters
     */
    static String frame(String label, long elapsedMs) {
        int span = BAR_WIDTH - BLOCK;
        int step = (int) ((elapsedMs / REDRAW_MS) % (2L * span));
        int offset = step <= span ? step : 2 * span - step;
        return label + " [" + " ".repeat(offset) + "=".repeat(BLOCK) + " ".repeat(span - offset) + "] "
                + String.format(Locale.ROOT, "%.1fs", elapsedMs / 1000.0);
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

    private void paintLoop() {
        while (running) {
            draw(frame(label, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos)));
            try {
                Thread.sleep(REDRAW_MS);
            } catch (InterruptedException e) {
                return;
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

    /** Stops drawing and erases the bar. */
    @Override
    public void close() {
        if (this == NONE) {
            return;
        }
        synchronized (this) {
            running = false;
            err.print('\r' + " ".repeat(lastWidth) + '\r');
            err.flush();
        }
        painter.interrupt();
        try {
            painter.join(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
