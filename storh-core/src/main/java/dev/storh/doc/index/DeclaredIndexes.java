package dev.storh.doc.index;

import dev.storh.fs.StoreFiles;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeMap;

/**
 * What a collection's manifest declares, as one instance knows it: the definitions in force (re-read
 * when the manifest changed on disk), the pending set that {@link IndexManager#sync()} writes, and
 * the index layout (the original's, or storh's value deltas, see {@link ValueDeltas}). Thread-safe.
 */
final class DeclaredIndexes {

    /**
     * What one manifest write changed.
     *
     * @param before the definitions the manifest held
     * @param after the definitions written
     * @param deltasTurnedOff whether the manifest said value deltas and no longer does
     */
    record Written(List<IndexDefinition> before, List<IndexDefinition> after, boolean deltasTurnedOff) {
    }

    private final StoreFiles files;
    private final Path manifest;
    private final Object pendingLock = new Object();
    private final TreeMap<String, IndexDefinition> pending = new TreeMap<>(dev.storh.query.Values::compareUtf8);
    private volatile List<IndexDefinition> definitions;
    private volatile IndexManifest.Stamp stamp;
    private volatile String layout;
    private volatile Boolean pendingValueDeltas;
    private final IndexTrust trust;
    /** Whether {@link #definitions} may be used without a look at the manifest (see {@link IndexTrust}). */
    private volatile IndexTrust.Vouch vouched = IndexTrust.Vouch.NONE;

    /**
     * @param files the collection's byte seam
     * @param manifest the manifest path
     * @param trust when the definitions last read may be used without a look at the manifest
     */
    DeclaredIndexes(StoreFiles files, Path manifest, IndexTrust trust) {
        this.files = files;
        this.manifest = manifest;
        this.trust = trust;
        this.stamp = IndexManifest.stamp(files, manifest);
        IndexManifest.Contents contents = IndexManifest.readContents(files, manifest, stamp);
        this.definitions = contents.definitions();
        this.layout = contents.layout();
        definitions.forEach(d -> pending.put(d.field(), d));
    }

    /** Adds a definition to the pending set, ORing flags with any earlier one. */
    void define(IndexDefinition d) {
        synchronized (pendingLock) {
            pending.merge(d.field(), d, IndexDefinition::merge);
        }
    }

    /** Asks for value deltas on or off from the next {@link #write()}. */
    void requestValueDeltas(boolean on) {
        pendingValueDeltas = on;
    }

    /** @return the layout last asked for ({@code true}: value deltas), {@code null} when none was */
    Boolean requestedValueDeltas() {
        return pendingValueDeltas;
    }

    /**
     * Writes the pending definitions, merged with the manifest's, and the layout asked for (else the
     * manifest's); call under the collection write lock.
     *
     * @return what changed
     */
    Written write() {
        IndexManifest.Contents old = IndexManifest.readContents(files, manifest); // one read for both
        List<IndexDefinition> before = old.definitions();
        List<IndexDefinition> after;
        synchronized (pendingLock) {
            before.forEach(this::define);
            after = List.copyOf(pending.values());
        }
        Boolean deltas = pendingValueDeltas;
        String oldLayout = old.layout();
        String newLayout = deltas == null ? oldLayout : deltas ? IndexManifest.VALUE_DELTAS : null;
        IndexManifest.Contents written = IndexManifest.write(files, manifest, after, newLayout);
        layout = newLayout;
        remember(after);
        IndexManifest.remember(files, manifest, stamp, written); // the next open takes it without a read
        return new Written(before, after, IndexManifest.VALUE_DELTAS.equals(oldLayout) && newLayout == null);
    }

    /** @return the definitions in force, re-read when the manifest changed on disk */
    List<IndexDefinition> current() {
        IndexTrust.Look look = trust.look();
        if (trust.holds(vouched, look)) {
            return definitions;
        }
        IndexManifest.Stamp now = IndexManifest.stamp(files, manifest);
        if (!IndexManifest.sameStamp(now, stamp)) {
            IndexManifest.Contents contents = IndexManifest.readContents(files, manifest, now);
            List<IndexDefinition> defs = contents.definitions();
            defs.forEach(this::define);
            definitions = defs;
            layout = contents.layout();
            stamp = now;
        }
        vouched = trust.vouch(look, now.version() == null ? -1 : files.modifiedMillis(now.version()));
        return definitions;
    }

    /** @return the definitions last read or written, without looking at the disk (writes under the lock) */
    List<IndexDefinition> known() {
        return definitions;
    }

    /** @return the manifest's definitions, read now and kept */
    List<IndexDefinition> reread() {
        List<IndexDefinition> defs = IndexManifest.read(files, manifest);
        remember(defs);
        return defs;
    }

    /** @return whether the manifest last read or written says value deltas */
    boolean valueDeltas() {
        return IndexManifest.VALUE_DELTAS.equals(layout);
    }

    private void remember(List<IndexDefinition> defs) {
        definitions = defs;
        stamp = IndexManifest.stamp(files, manifest);
    }
}
