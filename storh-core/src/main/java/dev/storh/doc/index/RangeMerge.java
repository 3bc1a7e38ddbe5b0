package dev.storh.doc.index;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One fold of a range delta into a main file that is in its own order, without a sort
 * ({@link RangeFiles#foldByMerge}): the main file's rows are merged, as they are read, with the
 * delta's rows sorted in memory. Rows compare as the sort compares {@link RangeFiles#sortRow}s: by
 * range key, then value key, then the line's text (the keys are printable ASCII and the sort row's
 * separator sorts below them, so comparing the parts in turn is comparing the rows).
 *
 * <p>A main line in the exact form a fold writes for its value and id (read by {@link RangeLines}
 * in its plain form, one id, count 1, no removals, its key the value's range key, and no byte
 * more or less than the canonical text: this rules out {@code -0}) is copied as it is; any other
 * line is encoded again from its value and id, as the sort encodes it. Not thread-safe: one fold.
 */
final class RangeMerge {

    /** The length of a canonical row line apart from its key, value text and id (and newline). */
    private static final int FIXED_LENGTH =
            RangeFiles.encodeLine("", "", 1, List.of(""), List.of()).length - "\"\"".length() - 1;

    private final RangeFiles files;
    private boolean ordered = true;
    private Row previous;
    private List<Row> added;
    private int next;

    RangeMerge(RangeFiles files) {
        this.files = files;
    }

    /** A row in main-file order: the value's range key, its value key (made when a tie needs it) and the line's text. */
    private static final class Row implements Comparable<Row> {
        private final String rangeKey;
        private final Object value;
        private String valueKey;
        /** The line with its newline, as the sort compares it. */
        private final String text;

        Row(String rangeKey, Object value, String text) {
            this.rangeKey = rangeKey;
            this.value = value;
            this.text = text;
        }

        private String valueKey() {
            if (valueKey == null) {
                valueKey = IndexKeys.valueKey(value);
            }
            return valueKey;
        }

        @Override
        public int compareTo(Row other) {
            int c = rangeKey.compareTo(other.rangeKey);
            if (c != 0) {
                return c;
            }
            c = valueKey().compareTo(other.valueKey());
            return c != 0 ? c : text.compareTo(other.text);
        }
    }

    /** The row of an id and value as a fold encodes it. */
    private static Row encoded(String id, Object value) {
        String rangeKey = IndexKeys.rangeKey(value);
        byte[] line = RangeFiles.encodeLine(rangeKey, value, 1, List.of(id), List.of());
        return new Row(rangeKey, value, new String(line, StandardCharsets.UTF_8));
    }

    /**
     * @param changed the delta's last change of every id it touches: its value, or {@link RangeFiles#REMOVED}
     * @return whether the main file was folded; {@code false} leaves every file as it was
     */
    boolean fold(Map<String, Object> changed) {
        added = new ArrayList<>(changed.size());
        changed.forEach((id, value) -> {
            if (value != RangeFiles.REMOVED) {
                added.add(encoded(id, value));
            }
        });
        added.sort(null);
        try (RangeFiles.MainWriter writer = files.new MainWriter()) {
            files.forEachRawLine(files.main(), (bytes, off, len) -> {
                if (ordered) {
                    mainLine(bytes, off, len, changed, writer);
                }
            }, null);
            if (!ordered) {
                return false; // closed unfinished: the files stay as they were
            }
            while (next < added.size()) {
                write(added.get(next++), writer);
            }
            writer.finish();
            return true;
        }
    }

    private void mainLine(byte[] bytes, int off, int len, Map<String, Object> changed, RangeFiles.MainWriter writer) {
        RangeFiles.Line plain = RangeLines.decode(bytes, off, len);
        RangeFiles.Line line = RangeFiles.lineAt(bytes, off, len, plain);
        if (line == null) {
            return; // a malformed line is skipped, as the sort skips it
        }
        if (!line.remove().isEmpty() || line.ids().size() != 1) {
            ordered = false;
            return;
        }
        String id = line.ids().get(0);
        if (changed.containsKey(id)) {
            return;
        }
        String rangeKey = IndexKeys.rangeKey(line.value());
        boolean canonical = line == plain && line.count() == 1 && rangeKey.equals(line.key())
                && len == FIXED_LENGTH + line.key().length() + id.length() + plainValueLength(line.value());
        Row row = canonical
                ? new Row(rangeKey, line.value(), new String(bytes, off, len, StandardCharsets.ISO_8859_1) + '\n')
                : encoded(id, line.value());
        if (previous != null && row.compareTo(previous) < 0) {
            ordered = false;
            return;
        }
        previous = row;
        while (next < added.size() && added.get(next).compareTo(row) < 0) {
            write(added.get(next++), writer);
        }
        if (canonical) {
            writer.add(rangeKey, bytes, off, len);
        } else {
            write(row, writer);
        }
    }

    private static void write(Row row, RangeFiles.MainWriter writer) {
        writer.add(row.rangeKey, row.text.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * @param value a value as {@link RangeLines} reads it: a string of printable ASCII without
     *     escapes, an integer, a boolean or {@code null}
     * @return the length of its canonical text
     */
    private static int plainValueLength(Object value) {
        if (value instanceof String s) {
            return s.length() + 2;
        }
        if (value instanceof Long n) {
            return Long.toString(n).length();
        }
        if (value instanceof Boolean b) {
            return b ? 4 : 5;
        }
        return 4; // null
    }
}
