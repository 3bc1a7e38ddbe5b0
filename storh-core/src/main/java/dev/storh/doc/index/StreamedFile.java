package dev.storh.doc.index;

import dev.storh.StorageException;
import dev.storh.fs.AtomicFiles;
import dev.storh.fs.StoreFiles;
import java.io.IOException;

/**
 * A file written in pieces through the byte seam, with one buffer of {@link #BUFFER} bytes, then
 * fsynced and closed: for index files too large to build in memory. The caller renames it into
 * place, or writes it inside a tree that is swapped in whole. On a failure the file is removed
 * and a {@link StorageException} names it. Not thread-safe.
 */
final class StreamedFile implements AutoCloseable {

    static final int BUFFER = 1 << 16;

    private final StoreFiles files;
    private final String name;
    private final StoreFiles.Output out;
    private final byte[] buffer = new byte[BUFFER];
    private int used;
    private long written;
    private boolean done;

    /**
     * @param files the seam
     * @param name the file to create (truncated if present); its folder must exist
     * @throws StorageException {@code "Could not open temporary storage file for writing: <file>"}
     */
    StreamedFile(StoreFiles files, String name) {
        this.files = files;
        this.name = name;
        try {
            this.out = files.create(name);
        } catch (IOException | RuntimeException e) {
            throw new StorageException("Could not open temporary storage file for writing: " + files.path(name), e);
        }
    }

    /** @return the bytes written so far (the offset of the next byte) */
    long position() {
        return written;
    }

    /**
     * @param bytes bytes to append
     * @throws StorageException {@code "Could not write storage file: <file>"}; the file is removed
     */
    void write(byte[] bytes) {
        write(bytes, 0, bytes.length);
    }

    /**
     * @param bytes a buffer
     * @param off the first byte to append
     * @param len how many bytes to append
     * @throws StorageException {@code "Could not write storage file: <file>"}; the file is removed
     */
    void write(byte[] bytes, int off, int len) {
        written += len;
        if (len > BUFFER - used) {
            flush();
            if (len > BUFFER) {
                put(bytes, off, len);
                return;
            }
        }
        System.arraycopy(bytes, off, buffer, used, len);
        used += len;
    }

    private void flush() {
        put(buffer, 0, used);
        used = 0;
    }

    private void put(byte[] bytes, int off, int length) {
        try {
            out.write(bytes, off, length);
        } catch (IOException | RuntimeException e) {
            fail();
            throw new StorageException("Could not write storage file: " + files.path(name), e);
        }
    }

    /**
     * Flushes, fsyncs and closes the file.
     *
     * @throws StorageException {@code "Could not write storage file: <file>"} or
     *     {@code "Could not sync storage file: <file>"}; the file is removed
     */
    void finish() {
        flush();
        try {
            out.sync();
            out.close();
            done = true;
        } catch (IOException | RuntimeException e) {
            fail();
            throw new StorageException("Could not sync storage file: " + files.path(name), e);
        }
    }

    private void fail() {
        done = true;
        try {
            out.close();
        } catch (IOException | RuntimeException ignored) {
            // the file is removed below
        }
        AtomicFiles.deleteQuietly(files, name);
    }

    /** Removes the file unless {@link #finish()} completed. */
    @Override
    public void close() {
        if (!done) {
            fail();
        }
    }
}
