package dev.storh.doc.index;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The first ids of value files as limited reads found them (a page of an equality), kept with what
 * {@link IndexTrust} vouched for at the look the query took before the read: a page of the same
 * value again, or a shorter one, costs no look at the file while nothing but this instance can have
 * written since. A head holds at most {@value #MAX_IDS} ids; past {@value #MAX_HEADS} heads or
 * {@value #MAX_KEPT_IDS} ids in all (a few MiB) the whole set starts again. Thread-safe.
 */
final class KeptHeads {

    /** The most ids a kept head holds: a longer page is read each time. */
    static final int MAX_IDS = 1024;

    /** The most heads kept. */
    static final int MAX_HEADS = 1024;

    /** The most ids kept in all the heads. */
    static final int MAX_KEPT_IDS = 1 << 15;

    /**
     * @param ids the first ids, ascending, unmodifiable
     * @param whole whether they are all the file's ids
     */
    private record Kept(List<String> ids, boolean whole, IndexTrust.Vouch vouch) {
    }

    private final Map<String, Kept> heads = new ConcurrentHashMap<>();
    private final java.util.concurrent.atomic.AtomicLong keptIds = new java.util.concurrent.atomic.AtomicLong();
    private final IndexTrust trust;

    KeptHeads(IndexTrust trust) {
        this.trust = trust;
    }

    /**
     * @param lookup what names the value file (its kind, field and key)
     * @param limit how many ids are wanted, at least 1
     * @param now the look of the query in progress, or {@code null}
     * @return the first {@code limit} ids (fewer when the file holds fewer), or {@code null} when a
     *     read must answer
     */
    List<String> first(String lookup, int limit, IndexTrust.Look now) {
        if (now == null) {
            return null;
        }
        Kept kept = heads.get(lookup);
        if (kept == null || !trust.holds(kept.vouch(), now) || (limit > kept.ids().size() && !kept.whole())) {
            return null;
        }
        return limit >= kept.ids().size() ? kept.ids() : kept.ids().subList(0, limit);
    }

    /**
     * Keeps what a read found, when the query had taken its look before it.
     *
     * @param lookup what names the value file
     * @param ids the ids the read returned, ascending
     * @param count the file's count as the read found it, or -1 when unknown
     * @param vouch what the trust vouched for at the look before the read
     */
    void keep(String lookup, List<String> ids, long count, IndexTrust.Vouch vouch) {
        if (vouch.mark() < 0 || ids.size() > MAX_IDS) {
            return;
        }
        if (heads.size() >= MAX_HEADS || keptIds.addAndGet(ids.size()) > MAX_KEPT_IDS) {
            heads.clear();
            keptIds.set(ids.size());
        }
        heads.put(lookup, new Kept(List.copyOf(ids), count >= 0 && ids.size() >= count, vouch));
    }

    /** Drops every head (the index tree was replaced). */
    void clear() {
        heads.clear();
        keptIds.set(0);
    }
}
