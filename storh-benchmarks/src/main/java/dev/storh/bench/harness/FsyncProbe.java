package dev.storh.bench.harness;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * Section {@code fsync}: the bare disk's limit for the two kinds of durable write the engines make,
 * through a raw {@link FileChannel} with no storh code, in the same folder as the stores. Every
 * durable figure can then be read as a fraction of it (the table does).
 *
 * <pre>
 * fsync.append    P × (append one 170-byte line + force(false)): the log's and queue's write   P / s
 * fsync.new_file  P × (write a 141-byte temp file + force(true), rename over the target name,
 *                 force(true) on the folder): the document store's write                      P / s
 * </pre>
 *
 * P = min(N, {@value #MAX_PROBES}): enough samples for a stable rate without doubling the run.
 */
final class FsyncProbe {

    /** Most operations per probe. */
    static final int MAX_PROBES = 10_000;

    private FsyncProbe() {
    }

    static void run(SectionRun b) throws Exception {
        int p = Math.min(b.n(), MAX_PROBES);
        byte[] line = filled(170);
        Path log = b.dir().resolve("probe.ndjson");
        try (FileChannel ch = FileChannel.open(log, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND)) {
            b.time("append", p, () -> {
                for (int i = 0; i < p; i++) {
                    ByteBuffer buf = ByteBuffer.wrap(line);
                    while (buf.hasRemaining()) {
                        ch.write(buf);
                    }
                    ch.force(false);
                }
                return ch.size();
            });
        }
        byte[] record = filled(141);
        Path folder = Files.createDirectories(b.dir().resolve("probe-files"));
        b.time("new_file", p, () -> {
            for (int i = 0; i < p; i++) {
                Path temp = folder.resolve(".r" + i + ".tmp");
                try (FileChannel ch = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                    ByteBuffer buf = ByteBuffer.wrap(record);
                    while (buf.hasRemaining()) {
                        ch.write(buf);
                    }
                    ch.force(true);
                }
                Files.move(temp, folder.resolve("r" + i + ".json"), StandardCopyOption.ATOMIC_MOVE);
                try (FileChannel dir = FileChannel.open(folder, StandardOpenOption.READ)) {
                    dir.force(true);
                }
            }
            return null;
        });
    }

    private static byte[] filled(int size) {
        byte[] bytes = new byte[size];
        Arrays.fill(bytes, (byte) 'x');
        byte[] nl = "\n".getBytes(StandardCharsets.US_ASCII);
        bytes[size - 1] = nl[0];
        return bytes;
    }
}
