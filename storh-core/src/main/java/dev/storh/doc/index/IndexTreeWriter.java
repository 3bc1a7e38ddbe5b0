package dev.storh.doc.index;

import dev.storh.fs.AtomicFiles;
import dev.storh.fs.StoreFiles;
import dev.storh.fs.SyncPool;
import dev.storh.json.CanonicalJson;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * Writes the files of a new index tree from the rows of {@link ExpectedIndexes}, sorted by index
 * and key, as they come: one value file per equality or compound key, the range main file line
 * by line. A value file names its count before its ids, so a second pass over the same sorted
 * rows runs one group ahead to count it; memory holds one row of each pass and the write buffer,
 * whatever the number of records. The bytes are those {@link EqualityFiles#encode} and
 * {@link RangeFiles#writeMain} write. Files are written in place (the tree is swapped in whole),
 * each fsynced, small value files a batch at a time side by side, and each folder fsynced once at
 * the end.
 */
final class IndexTreeWriter {

    private static final char SEP = ExpectedIndexes.SEP;
    /** Value files of at most this many ids are written side by side, a batch at a time ({@link SyncPool}). */
    private static final int SMALL = 4096;
    private static final byte[] TAIL = "]}\n".getBytes(StandardCharsets.UTF_8);

    private final StoreFiles files;
    private final Path entries;
    private final List<ExpectedIndexes.Slot> slots;
    private final SortedRows rows;
    private final Set<String> folders = new LinkedHashSet<>();
    private final List<Pending> pending = new ArrayList<>();
    private long pendingBytes;

    /** A small value file waiting to be written. */
    private record Pending(String file, byte[] bytes) {
    }

    IndexTreeWriter(StoreFiles files, Path entries, List<ExpectedIndexes.Slot> slots, SortedRows rows) {
        this.files = files;
        this.entries = entries;
        this.slots = slots;
        this.rows = rows;
    }

    /** A sorted pass with one row of look-ahead. */
    private static final class Pass {
        private final Iterator<String> it;
        private String head;

        Pass(Iterator<String> it) {
            this.it = it;
            this.head = it.hasNext() ? it.next() : null;
        }

        boolean startsWith(String prefix) {
            return head != null && head.startsWith(prefix);
        }

        String next() {
            if (head == null) {
                throw new NoSuchElementException();
            }
            String row = head;
            head = it.hasNext() ? it.next() : null;
            return row;
        }
    }

    void write() {
        Pass lead = new Pass(rows.sorted());
        Pass follow = new Pass(rows.sorted());
        for (ExpectedIndexes.Slot s : slots) {
            String prefix = s.tag() + SEP;
            if (s.range()) {
                writeRange(s, prefix, lead, follow);
            } else {
                writeValueFiles(s, prefix, lead, follow);
            }
        }
        folders.forEach(dir -> AtomicFiles.syncDirectory(files, dir));
    }

    private void writeValueFiles(ExpectedIndexes.Slot s, String prefix, Pass lead, Pass follow) {
        Path dir = s.pair() == null ? IndexLayout.equalityDir(entries, s.label())
                : IndexLayout.compoundDir(entries, s.pair()[0].field(), s.pair()[1].field());
        while (lead.startsWith(prefix)) {
            String first = lead.next();
            int keyEnd = first.indexOf(SEP, prefix.length());
            String key = first.substring(prefix.length(), keyEnd);
            String valueText = "null";
            if (s.pair() == null) {
                valueText = first.substring(first.indexOf(SEP, keyEnd + 1) + 1);
            }
            String group = first.substring(0, keyEnd + 1);
            long count = 1;
            while (lead.startsWith(group)) {
                lead.next();
                count++;
            }
            String dirName = files.nameOf(dir);
            if (folders.add(dirName)) {
                AtomicFiles.ensureDirectory(files, dirName);
            }
            String file = files.nameOf(IndexLayout.valueFile(dir, key));
            byte[] head = header(s.label(), key, count, valueText);
            if (count > SMALL) {
                try (StreamedFile out = new StreamedFile(files, file)) {
                    out.write(head);
                    for (long i = 0; i < count; i++) {
                        out.write(((i == 0 ? "" : ",") + idText(follow.next(), group.length())).getBytes(StandardCharsets.UTF_8));
                    }
                    out.write(TAIL);
                    out.finish();
                }
                continue;
            }
            StringBuilder text = new StringBuilder(new String(head, StandardCharsets.UTF_8));
            for (long i = 0; i < count; i++) {
                text.append(i == 0 ? "" : ",").append(idText(follow.next(), group.length()));
            }
            pending.add(new Pending(file, text.append("]}\n").toString().getBytes(StandardCharsets.UTF_8)));
            pendingBytes += text.length();
            if (pending.size() >= 512 || pendingBytes >= (4 << 20)) {
                flushPending();
            }
        }
        flushPending();
    }

    private void flushPending() {
        if (!pending.isEmpty()) {
            SyncPool.forEach(pending, p -> AtomicFiles.writeSynced(files, p.file(), p.bytes()));
            pending.clear();
            pendingBytes = 0;
        }
    }

    /** @return the id of a sorted row, from {@code from} to the next separator, as JSON text */
    private static String idText(String row, int from) {
        int end = row.indexOf(SEP, from);
        return CanonicalJson.compactText(row.substring(from, end < 0 ? row.length() : end));
    }

    /** @return the start of a value file up to the ids' opening bracket, as {@link EqualityFiles#encode} writes it */
    static byte[] header(String field, String key, long count, String valueText) {
        return ("{\"field\":" + CanonicalJson.compactText(field) + ",\"key\":" + CanonicalJson.compactText(key) + ",\"count\":"
                + count + ",\"value\":" + valueText + ",\"ids\":[").getBytes(StandardCharsets.UTF_8);
    }

    private void writeRange(ExpectedIndexes.Slot s, String prefix, Pass lead, Pass follow) {
        if (!follow.startsWith(prefix)) {
            return;
        }
        RangeFiles rf = new RangeFiles(files, entries, s.label());
        try (RangeFiles.MainWriter writer = rf.new MainWriter()) {
            while (follow.startsWith(prefix)) {
                lead.next();
                RangeFiles.addSortRow(follow.next(), prefix.length(), writer);
            }
            writer.finish();
        }
    }
}
