package dev.storh.log;

import dev.storh.StorageException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * How a log's picture ({@link LogState}) catches up with other processes' writes (weak spot W1). The
 * original never notices them. Here, the manifest's identity (size, nanosecond mtime, inode: W11) and
 * the active segment's size are compared with what this instance knows: new lines are tailed in, a roll
 * by another process is followed incrementally, and anything else (a compaction) triggers a full rescan.
 * Called with the collection lock held; the picture changes under the state's monitor. Stateless.
 */
final class LogCatchUp {

    private LogCatchUp() {
    }

    /**
     * @param state the log's picture
     * @param truncate whether torn tails are cut (writers) or left invisible (readers)
     * @param activeSize the active segment's current size if the caller knows it, else -1
     * @return whether anything changed
     */
    static boolean refresh(LogState state, boolean truncate, long activeSize) {
        if (state.rebuild) {
            state.load(truncate);
            return true;
        }
        Object now = Manifest.stamp(state.files);
        if (!Manifest.same(now, state.stamp)) {
            Manifest.Data m = Manifest.read(state.files);
            if (m == null && state.stamp != null) {
                throw new StorageException("Log manifest is gone: " + state.manifestPath() + " (the log's folder was deleted or"
                        + " moved while this instance had it open; nothing was read or written; reopen the log)");
            }
            if (m == null || !followRoll(state, m, now, truncate)) {
                state.load(truncate);
            }
            return true;
        }
        Segment a = state.active;
        long size = activeSize >= 0 ? activeSize : state.size(a.file);
        if (size == a.end) {
            return false;
        }
        if (size >= 0 && size < a.end) {
            state.load(truncate); // cut behind our back: rebuild
            return true;
        }
        synchronized (state) {
            state.bytesCut += SegmentScanner.scan(state, a, state.index, truncate, false);
        }
        return true;
    }

    /** Applies another process's roll(s) incrementally; false when the new manifest is not one. */
    private static boolean followRoll(LogState state, Manifest.Data m, Object now, boolean truncate) {
        List<Segment> mine = state.sealed;
        List<Map<String, Object>> theirs = m.sealed();
        if (m.active() == null || theirs.size() < mine.size()) {
            return false;
        }
        for (int i = 0; i < mine.size(); i++) {
            Segment s = mine.get(i);
            if (!s.file.equals(theirs.get(i).get("file")) || state.size(s.file) < s.end) {
                return false; // replaced, or shrunk by another process's repair: rebuild
            }
        }
        Segment a = state.active;
        boolean sameActive = a.file.equals(m.active().get("file"));
        if (sameActive ? theirs.size() != mine.size()
                : theirs.size() == mine.size() || !a.file.equals(theirs.get(mine.size()).get("file"))) {
            return false;
        }
        synchronized (state) {
            state.bytesCut += SegmentScanner.scan(state, a, state.index, truncate, false);
            List<Segment> newSealed = new ArrayList<>(mine);
            Segment newActive = a;
            if (!sameActive) {
                Object idx = theirs.get(mine.size()).get("index");
                a.seal(idx instanceof String s ? s : LogFiles.indexName(a.file));
                newSealed.add(a);
                for (Map<String, Object> raw : theirs.subList(mine.size() + 1, theirs.size())) {
                    Segment s = Segment.fromManifest(raw, true);
                    state.bytesCut += SegmentScanner.scan(state, s, state.index, truncate, false);
                    newSealed.add(s);
                }
                newActive = Segment.fromManifest(m.active(), false);
                state.bytesCut += SegmentScanner.scan(state, newActive, state.index, truncate, false);
            }
            state.sealed = List.copyOf(newSealed);
            state.active = newActive;
            state.adoptManifest(m);
            state.stamp = now;
        }
        return true;
    }
}
