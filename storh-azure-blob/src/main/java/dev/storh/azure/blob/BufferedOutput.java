package dev.storh.azure.blob;

import dev.storh.fs.StoreFiles;
import java.io.IOException;
import java.util.Arrays;

/**
 * The part of a blob output that keeps written bytes in memory until {@link #sync},
 * {@link #syncData} or {@link #close} sends them with {@link #flush()}. One thread at a time.
 */
abstract class BufferedOutput implements StoreFiles.Output {

    /** The seam name, for errors. */
    final String name;
    /** The buffered bytes: {@code buffer[0, buffered)}. */
    byte[] buffer = new byte[256];
    /** How many bytes of {@link #buffer} are in use. */
    int buffered;
    private boolean closed;

    BufferedOutput(String name) {
        this.name = name;
    }

    /**
     * Sends what needs sending (the implementation knows what changed).
     *
     * @throws IOException when the service refused or could not be reached
     */
    abstract void flush() throws IOException;

    /** Called after bytes were added to the buffer. */
    void changed() {
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
        ensureOpen();
        if (buffered + length > buffer.length) {
            buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, buffered + length));
        }
        System.arraycopy(bytes, offset, buffer, buffered, length);
        buffered += length;
        changed();
    }

    @Override
    public void sync() throws IOException {
        ensureOpen();
        flush();
    }

    @Override
    public void syncData() throws IOException {
        sync();
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        flush();
    }

    /** @throws IOException when the output was closed */
    void ensureOpen() throws IOException {
        if (closed) {
            throw new IOException("Closed: " + name);
        }
    }
}
