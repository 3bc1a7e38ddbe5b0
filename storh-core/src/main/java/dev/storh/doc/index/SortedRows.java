package dev.storh.doc.index;

import dev.storh.StorageException;
import dev.storh.fs.AtomicFiles;
import dev.storh.fs.StoreFiles;
import dev.storh.fs.WriterMarkers;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.PriorityQueue;

/**
 * An external sort of text rows: rows are buffered until about {@link #BUDGET_CHARS} characters,
 * then sorted and written as one run file into a scratch folder of the collection; {@link #sorted()}
 * merges the runs and the last buffer. Memory stays about the budget plus one read buffer a run,
 * whatever the number of rows. A run file is named {@code .<pid>.<hex>.<n>.tmp}, so the temp sweep
 * of a later open removes it once this process is gone; {@link #close()} removes it at once. On a
 * read-only seam, or without a scratch folder, every row stays in memory.
 *
 * <p>Rows compare by {@link String#compareTo}. Not thread-safe: one maintenance pass uses one.
 */
final class SortedRows implements AutoCloseable {

    /** Characters buffered before a run is written (with 64 more a row for its string: about 16 to 32 MiB of heap). */
    static final long BUDGET_CHARS = 16L << 20;
    private static final int IO_BUFFER = 1 << 16;

    private final StoreFiles files;
    private final String scratchDir;
    private final long budget;
    private final String prefix = WriterMarkers.newWriterPrefix();
    private final List<String> runs = new ArrayList<>();
    private final List<InputStream> open = new ArrayList<>();
    private List<String> buffer = new ArrayList<>();
    private long buffered;
    private boolean finished;

    /**
     * @param files the collection's byte seam
     * @param scratchDir the folder for run files (a seam name), or {@code null} to keep every row in memory
     */
    SortedRows(StoreFiles files, String scratchDir) {
        this(files, scratchDir, BUDGET_CHARS);
    }

    /**
     * @param files the collection's byte seam
     * @param scratchDir the folder for run files, or {@code null} to keep every row in memory
     * @param budgetChars characters buffered before a run is written
     */
    SortedRows(StoreFiles files, String scratchDir, long budgetChars) {
        this.files = files;
        this.scratchDir = scratchDir == null || files.isReadOnly() ? null : scratchDir;
        this.budget = budgetChars;
    }

    /**
     * @param row a row; any characters
     * @throws IllegalStateException after {@link #sorted()}
     * @throws StorageException when a run cannot be written
     */
    void add(String row) {
        if (finished) {
            throw new IllegalStateException("rows already sorted");
        }
        buffer.add(row);
        buffered += row.length() + 64;
        if (buffered >= budget && scratchDir != null) {
            spill();
        }
    }

    /** @return how many run files were written so far */
    int runs() {
        return runs.size();
    }

    private void spill() {
        buffer.sort(null);
        String name = scratchDir + "/." + prefix + "." + runs.size() + ".tmp";
        if (runs.isEmpty()) {
            AtomicFiles.ensureDirectory(files, scratchDir);
        }
        runs.add(name);
        try (StoreFiles.Output out = files.create(name);
                DataOutputStream data = new DataOutputStream(new BufferedOutputStream(stream(out), IO_BUFFER))) {
            for (String row : buffer) {
                byte[] bytes = row.getBytes(StandardCharsets.UTF_8);
                data.writeInt(bytes.length);
                data.write(bytes);
            }
        } catch (IOException e) {
            throw new StorageException("Could not write sort run: " + files.path(name), e);
        }
        buffer = new ArrayList<>();
        buffered = 0;
    }

    private static OutputStream stream(StoreFiles.Output out) {
        return new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                out.write(new byte[] {(byte) b});
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                out.write(b, off, len);
            }
        };
    }

    /**
     * Ends the adding; may be called again for another pass over the same rows.
     *
     * @return every row added, ascending (duplicates kept); read each iterator to its end or close this
     * @throws StorageException when a run cannot be read
     */
    Iterator<String> sorted() {
        if (!finished) {
            buffer.sort(null);
            finished = true;
        }
        PriorityQueue<Cursor> heads = new PriorityQueue<>((a, b) -> a.head.compareTo(b.head));
        Cursor memory = new Cursor(buffer.iterator());
        if (memory.head != null) {
            heads.add(memory);
        }
        for (String run : runs) {
            Cursor c = new Cursor(run);
            if (c.head != null) {
                heads.add(c);
            }
        }
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                return !heads.isEmpty();
            }

            @Override
            public String next() {
                Cursor c = heads.poll();
                if (c == null) {
                    throw new NoSuchElementException();
                }
                String row = c.head;
                if (c.advance()) {
                    heads.add(c);
                }
                return row;
            }
        };
    }

    /** One sorted source: the in-memory buffer or a run file, with its current row. */
    private final class Cursor {
        private final Iterator<String> rows;
        private final DataInputStream in;
        private final String name;
        private String head;

        Cursor(Iterator<String> rows) {
            this.rows = rows;
            this.in = null;
            this.name = null;
            advance();
        }

        Cursor(String name) {
            this.rows = null;
            this.name = name;
            try {
                InputStream raw = files.open(name);
                open.add(raw);
                this.in = new DataInputStream(new BufferedInputStream(raw, IO_BUFFER));
            } catch (IOException e) {
                throw new StorageException("Could not read sort run: " + files.path(name), e);
            }
            advance();
        }

        /** @return whether there is a row */
        boolean advance() {
            if (rows != null) {
                head = rows.hasNext() ? rows.next() : null;
                return head != null;
            }
            try {
                int length;
                try {
                    length = in.readInt();
                } catch (EOFException end) {
                    in.close();
                    head = null;
                    return false;
                }
                byte[] bytes = new byte[length];
                in.readFully(bytes);
                head = new String(bytes, StandardCharsets.UTF_8);
                return true;
            } catch (IOException e) {
                throw new StorageException("Could not read sort run: " + files.path(name), new UncheckedIOException(e));
            }
        }
    }

    /** Deletes the run files (quietly: the temp sweep of a later open removes what is left). */
    @Override
    public void close() {
        for (InputStream in : open) {
            try {
                in.close();
            } catch (IOException ignored) {
                // a scratch file: it is deleted next
            }
        }
        open.clear();
        runs.forEach(run -> AtomicFiles.deleteQuietly(files, run));
        runs.clear();
    }
}
