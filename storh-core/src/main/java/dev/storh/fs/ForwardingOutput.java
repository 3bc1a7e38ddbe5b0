package dev.storh.fs;

import java.io.IOException;

/**
 * A {@link StoreFiles.Output} that hands every call to another output: the base of decorators that
 * change one part (time or defer the fsyncs) and keep the rest. Thread-safe as far as the delegate is.
 */
public abstract class ForwardingOutput implements StoreFiles.Output {

    /** The output every call goes to. */
    protected final StoreFiles.Output out;

    /**
     * @param out the output every call goes to
     */
    protected ForwardingOutput(StoreFiles.Output out) {
        this.out = out;
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
        out.write(bytes, offset, length);
    }

    @Override
    public void sync() throws IOException {
        out.sync();
    }

    @Override
    public void syncData() throws IOException {
        out.syncData();
    }

    @Override
    public long size() throws IOException {
        return out.size();
    }

    @Override
    public void truncate(long size) throws IOException {
        out.truncate(size);
    }

    @Override
    public void close() throws IOException {
        out.close();
    }
}
