package dev.storh.doc;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Counts the bytes read through it, for import progress. Not thread-safe: one reader at a time.
 */
final class CountingInputStream extends FilterInputStream {

    private long untaken;

    CountingInputStream(InputStream in) {
        super(in);
    }

    /**
     * @return the bytes read since the last call
     */
    long take() {
        long n = untaken;
        untaken = 0;
        return n;
    }

    @Override
    public int read() throws IOException {
        int b = super.read();
        if (b >= 0) {
            untaken++;
        }
        return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        int n = super.read(b, off, len);
        if (n > 0) {
            untaken += n;
        }
        return n;
    }

    @Override
    public long skip(long n) throws IOException {
        long skipped = super.skip(n);
        untaken += Math.max(0, skipped);
        return skipped;
    }
}
