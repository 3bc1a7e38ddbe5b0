package dev.storh.azure.blob;

import dev.storh.fs.StoreFiles;
import java.io.IOException;
import java.util.Arrays;

/**
 * A created file: bytes are buffered and uploaded whole, as one block blob, at {@link #sync},
 * {@link #syncData} and {@link #close} (only when something changed since the last upload; an
 * untouched new file is uploaded empty on close). Readers see the previous bytes until then.
 * One thread at a time.
 */
final class BlockOutput implements StoreFiles.Output {

    private final BlobFiles files;
    private final String name;
    private byte[] buffer = new byte[256];
    private int size;
    private boolean dirty = true;
    private boolean closed;

    BlockOutput(BlobFiles files, String name) {
        this.files = files;
        this.name = name;
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
        ensureOpen();
        if (size + length > buffer.length) {
            buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, size + length));
        }
        System.arraycopy(bytes, offset, buffer, size, length);
        size += length;
        dirty = true;
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
    public long size() {
        return size;
    }

    @Override
    public void truncate(long newSize) throws IOException {
        ensureOpen();
        if (newSize < 0 || newSize > size) {
            throw new IOException("Cannot truncate " + name + " to " + newSize + " bytes (size " + size + ")");
        }
        size = (int) newSize;
        dirty = true;
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        flush();
    }

    private void flush() throws IOException {
        if (dirty) {
            files.upload(name, Arrays.copyOf(buffer, size), null, false);
            dirty = false;
        }
    }

    private void ensureOpen() throws IOException {
        if (closed) {
            throw new IOException("Closed: " + name);
        }
    }
}
