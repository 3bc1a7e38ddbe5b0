package dev.storh.doc.index;

import dev.storh.StorageException;
import dev.storh.fs.StoreFiles;
import dev.storh.query.Values;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * What the index files on disk hold, as rows for the compare of {@link ExpectedIndexes}: one row
 * per id and key of a value file ({@code A}), and one per id a range line adds or removes
 * ({@code R} with the line's place in the replay, so the sort keeps the file order and the last
 * change of an id wins). Problems of the files themselves go to the error list, in the wording
 * verify reports. A value file is read whole (with its delta); a range file line by line.
 */
final class IndexFileRows {

    private static final char SEP = ExpectedIndexes.SEP;

    private final StoreFiles files;
    private final Path entries;
    private final SortedRows rows;
    private final List<String> errors;

    IndexFileRows(StoreFiles files, Path entries, SortedRows rows, List<String> errors) {
        this.files = files;
        this.entries = entries;
        this.rows = rows;
        this.errors = errors;
    }

    void add(ExpectedIndexes.Slot s) {
        if (s.range()) {
            addRange(s);
        } else if (s.pair() != null) {
            addValueFiles(s, IndexLayout.compoundDir(entries, s.pair()[0].field(), s.pair()[1].field()), false);
        } else {
            addValueFiles(s, IndexLayout.equalityDir(entries, s.label()), true);
        }
    }

    private void addRange(ExpectedIndexes.Slot s) {
        RangeFiles rf = new RangeFiles(files, entries, s.label());
        long[] seq = {0};
        RangeFiles.LineSink sink = line -> {
            long n = seq[0]++;
            if (line == null) {
                return;
            }
            String added = "R" + String.format(Locale.ROOT, "%016d", 2 * n) + SEP + "+" + ExpectedIndexes.rangeGroup(line.value());
            for (String id : line.ids()) {
                rows.add(s.tag() + SEP + ExpectedIndexes.escape(id) + SEP + added);
            }
            String removed = "R" + String.format(Locale.ROOT, "%016d", 2 * n + 1) + SEP + "-";
            for (String id : line.remove()) {
                rows.add(s.tag() + SEP + ExpectedIndexes.escape(id) + SEP + removed);
            }
        };
        rf.forEachLine(rf.main(), sink, errors);
        rf.forEachLine(rf.delta(), sink, errors);
    }

    private void addValueFiles(ExpectedIndexes.Slot s, Path dir, boolean checkKey) {
        try {
            for (Path file : IndexBytes.list(files, dir, "*.jsonc")) {
                if (file.getFileName().toString().startsWith(".")) {
                    continue;
                }
                EqualityFiles.Entry e;
                try {
                    e = EqualityFiles.read(files, file);
                } catch (StorageException ex) {
                    errors.add("Unreadable index file: " + file + " (" + ex.getMessage() + ")");
                    continue;
                }
                if (e == null) {
                    continue;
                }
                if (e.field() == null || e.key() == null) {
                    errors.add("Malformed index file: " + file);
                    continue;
                }
                if (!e.field().equals(s.label())) {
                    errors.add("Index field mismatch: " + file);
                    continue;
                }
                if (checkKey && (!IndexKeys.isIndexable(Values.normalise(e.value()))
                        || !e.key().equals(IndexKeys.valueKey(Values.normalise(e.value()))))) {
                    errors.add("Index key mismatch: " + file);
                    continue;
                }
                if (!(e.count() instanceof Long c) || c != e.ids().size()) {
                    errors.add("Index count mismatch: " + file);
                }
                String listed = SEP + "A" + SEP + e.key();
                for (String id : e.ids()) {
                    rows.add(s.tag() + SEP + ExpectedIndexes.escape(id) + listed);
                }
            }
        } catch (IOException e) {
            errors.add("Unreadable index file: " + dir + " (" + e.getMessage() + ")");
        }
    }
}
