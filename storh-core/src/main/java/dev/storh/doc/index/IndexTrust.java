package dev.storh.doc.index;

import dev.storh.fs.WritersFolder;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * When index state an instance keeps (the definitions, value-file counts, range seeks and views, the
 * unindexed lists) may be used without looking at its files again: while nothing but this instance
 * can have written them since they were checked. That holds while the collection's writers folder
 * keeps the modification time at which it listed no marker but this instance's (see
 * {@link WritersFolder}: every other storh writer, of this process or another, registers a marker
 * before it writes) and this instance has made no write of its own since (its writes change the
 * files, and the next read checks them again). A query looks at the folder once ({@link #during}), so
 * its reads of state checked before cost one {@code stat} in all.
 *
 * <p>Limits, as for the record cache: a program that writes index files without a marker (an editor,
 * a copy put in place) is not seen until this instance writes or another writer registers; damage
 * made by hand is what open and verify are for. Thread-safe.
 */
public final class IndexTrust {

    /** Trusts nothing: every read checks its files. */
    public static final IndexTrust NEVER = new IndexTrust(null, () -> 0);

    /** A look at the writers folder's time and this instance's write count, taken once per query. */
    record Look(long folderMillis, long writes) {
        static final Look NONE = new Look(-1, -1);
    }

    /** What checked state carries: the writers folder's quiet time and the write count it was checked at. */
    record Vouch(long mark, long writes) {
        static final Vouch NONE = new Vouch(-1, -1);
    }

    /** Marks a query in progress whose look is not taken yet. */
    private static final Look PENDING = new Look(-2, -2);

    private final WritersFolder writers;
    private final LongSupplier ownWrites;
    private final ThreadLocal<Look[]> scope = ThreadLocal.withInitial(() -> new Look[1]);
    /** The latest file time this instance has seen, the evidence that the clock has passed a folder time. */
    private volatile long latestSeen = -1;

    /**
     * @param writers the collection's writers folder, this instance's markers counted as its own
     * @param ownWrites how many times this instance has entered or left a write (the outermost
     *     hold of its write lock): odd while a write is under way, changed by every write
     */
    public IndexTrust(WritersFolder writers, LongSupplier ownWrites) {
        this.writers = writers;
        this.ownWrites = ownWrites;
    }

    /**
     * Runs a query whose index reads share one look at the writers folder, taken at its first read.
     *
     * @param <T> what the query returns
     * @param query the query
     * @return what it returned
     */
    public <T> T during(Supplier<T> query) {
        if (writers == null) {
            return query.get();
        }
        Look[] slot = scope.get();
        if (slot[0] != null) {
            return query.get(); // nested: the outer query's look stands
        }
        slot[0] = PENDING;
        try {
            return query.get();
        } finally {
            slot[0] = null;
        }
    }

    /** @return the look of the query in progress on this thread, or a fresh one */
    Look look() {
        if (writers == null) {
            return Look.NONE;
        }
        Look[] slot = scope.get();
        Look held = slot[0];
        if (held != null && held != PENDING) {
            return held;
        }
        Look fresh = new Look(writers.modifiedMillis(), ownWrites.getAsLong());
        if (held == PENDING) {
            slot[0] = fresh;
        }
        return fresh;
    }

    /**
     * @return the look the query in progress on this thread has already taken, or {@code null} when
     *     it has taken none yet or no query is in progress (no look is taken here)
     */
    Look taken() {
        if (writers == null) {
            return null;
        }
        Look held = scope.get()[0];
        return held == PENDING ? null : held;
    }

    /**
     * @param before the look taken before the state's files were checked
     * @param seenMillis the latest modification time among those files (the seam's clock), or -1
     * @return what the state may carry: it is trusted while {@link #holds} says so
     */
    Vouch vouch(Look before, long seenMillis) {
        if (writers == null || before.folderMillis() < 0 || (before.writes() & 1) != 0) {
            return Vouch.NONE; // odd: a write of this instance was under way, its files may change again
        }
        long seen = Math.max(seenMillis, latestSeen);
        if (seen > latestSeen) {
            latestSeen = seen;
        }
        long mark = writers.quietMark(before.folderMillis(), seen);
        return mark < 0 ? Vouch.NONE : new Vouch(mark, before.writes());
    }

    /**
     * @param vouch what checked state carries ({@code null}: nothing)
     * @param now the look of the query in progress
     * @return whether the state is still what its files hold, without looking at them
     */
    boolean holds(Vouch vouch, Look now) {
        return vouch != null && vouch.mark() >= 0 && vouch.mark() == now.folderMillis() && vouch.writes() == now.writes();
    }
}
