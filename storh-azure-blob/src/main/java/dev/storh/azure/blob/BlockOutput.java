package dev.storh.azure.blob;

import java.io.IOException;
import java.util.Arrays;

/**
 * A created file: bytes are buffered and uploaded whole, as one block blob, at {@link #sync},
 * {@link #syncData} and {@link #close} (only when something changed since the last upload; an
 * untouched new file is uploaded empty on close). Readers see the previous bytes until then.
 * One thread at a time.
 */
final class BlockOutput extends BufferedOutput {

    private final BlobFiles files;
    private boolean dirty = true;

    BlockOutput(BlobFiles files, String name) {
        super(name);
        this.files = files;
    }

    @Override
    void changed() {
        dirty = true;
    }

    @Override
    public long size() {
        return buffered;
    }

    @Override
    public void truncate(long newSize) throws IOException {
        ensureOpen();
        if (newSize < 0 || newSize > buffered) {
            throw new IOException("Cannot truncate " + name + " to " + newSize + " bytes (size " + buffered + ")");
        }
        buffered = (int) newSize;
        dirty = true;
    }

    @Override
    void flush() throws IOException {
        if (dirty) {
            files.upload(name, Arrays.copyOf(buffer, buffered), null, false);
            dirty = false;
        }
    }
}
