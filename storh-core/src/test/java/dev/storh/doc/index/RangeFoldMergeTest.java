package dev.storh.doc.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.fs.LocalFiles;
import dev.storh.fs.StoreFiles;
import dev.storh.id.UuidV7;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A range fold merges a main file in its own order with the sorted delta, without a sort: the
 * files it writes are the sort's byte for byte (seeded values of every kind a range line holds:
 * integers, doubles equal to integers, negatives, strings with characters past the BMP, ties on
 * one value; adds, moves and removals in the delta), and a main file it cannot merge (rows out of
 * order, a line of several ids) is left for the sort untouched. Real files in a temp folder.
 */
class RangeFoldMergeTest {

    @TempDir
    Path root;

    private static Object value(Random random) {
        return switch (random.nextInt(7)) {
            case 0 -> (long) random.nextInt(50);
            case 1 -> (double) random.nextInt(50);
            case 2 -> -random.nextDouble() * 1e6;
            case 3 -> random.nextLong();
            case 4 -> "s" + random.nextInt(40);
            case 5 -> "é" + new String(Character.toChars(0x1F600 + random.nextInt(3))) + random.nextInt(3);
            default -> "\uFFFD" + random.nextInt(5);
        };
    }

    private RangeFiles range(Path entries) throws IOException {
        StoreFiles files = LocalFiles.at(root);
        RangeFiles rf = new RangeFiles(files, entries, "f");
        Files.createDirectories(rf.delta().getParent());
        return rf;
    }

    /** A main file written by a fold (storh's own order), then a delta of adds, moves and removals. */
    private Path seeded(long seed, String name) throws IOException {
        Random random = new Random(seed);
        Path entries = root.resolve(name);
        RangeFiles rf = range(entries);
        Map<String, Object> state = new TreeMap<>();
        List<byte[]> lines = new ArrayList<>();
        for (int i = 0; i < 600; i++) {
            String id = UuidV7.generate();
            Object v = value(random);
            state.put(id, v);
            lines.add(RangeFiles.encodeLine(IndexKeys.rangeKey(v), v, 1, List.of(id), List.of()));
        }
        rf.appendDelta(lines);
        rf.fold(SortedRows.BUDGET_CHARS, false); // the main file, as every fold wrote it so far
        lines.clear();
        List<String> ids = new ArrayList<>(state.keySet());
        for (int i = 0; i < 300; i++) {
            int kind = random.nextInt(3);
            if (kind == 0) {
                String id = UuidV7.generate();
                Object v = value(random);
                lines.add(RangeFiles.encodeLine(IndexKeys.rangeKey(v), v, 1, List.of(id), List.of()));
                ids.add(id);
                state.put(id, v);
            } else {
                String id = ids.get(random.nextInt(ids.size()));
                Object old = state.get(id);
                if (old == null) {
                    continue;
                }
                lines.add(RangeFiles.encodeLine(IndexKeys.rangeKey(old), old, -1, List.of(), List.of(id)));
                state.remove(id);
                if (kind == 1) {
                    Object v = value(random);
                    lines.add(RangeFiles.encodeLine(IndexKeys.rangeKey(v), v, 1, List.of(id), List.of()));
                    state.put(id, v);
                }
            }
        }
        rf.appendDelta(lines);
        return entries;
    }

    private static Map<String, String> files(Path dir) throws IOException {
        Map<String, String> out = new TreeMap<>();
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.filter(Files::isRegularFile).toList()) {
                out.put(dir.relativize(p).toString(), Files.readString(p));
            }
        }
        return out;
    }

    private void copy(Path from, Path to) throws IOException {
        try (Stream<Path> all = Files.walk(from)) {
            for (Path p : all.toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target);
                }
            }
        }
    }

    @Test
    void aMergedFoldWritesTheSortsBytes() throws IOException {
        for (long seed = 1; seed <= 12; seed++) {
            Path merged = seeded(seed, "merged-" + seed);
            Path sorted = root.resolve("sorted-" + seed);
            copy(merged, sorted);
            RangeFiles m = range(merged);
            assertThat(m.foldByMerge(m.deltaChanges())).as("seed " + seed + ": merged").isTrue();
            range(sorted).fold(SortedRows.BUDGET_CHARS, false);
            assertThat(files(merged)).as("seed " + seed).isEqualTo(files(sorted));
            assertThat(m.delta()).doesNotExist();
            Map<String, Object> loaded = m.load(null);
            Map<String, Object> expected = range(sorted).load(null);
            assertThat(loaded).hasSameSizeAs(expected);
        }
    }

    @Test
    void aMainFileOutOfItsOrderOrWithManyIdsALineIsLeftForTheSort() throws IOException {
        Path entries = seeded(99, "odd");
        RangeFiles rf = range(entries);
        List<String> mainLines = new ArrayList<>(Files.readAllLines(rf.main()));
        java.util.Collections.reverse(mainLines);
        Files.write(rf.main(), mainLines);
        Map<String, String> before = files(entries);
        assertThat(rf.foldByMerge(rf.deltaChanges())).as("rows out of order").isFalse();
        assertThat(files(entries)).as("left as it was").isEqualTo(before);

        Path sorted = root.resolve("odd-sorted");
        copy(entries, sorted);
        rf.fold(SortedRows.BUDGET_CHARS, true);
        range(sorted).fold(SortedRows.BUDGET_CHARS, false);
        assertThat(files(entries)).isEqualTo(files(sorted));

        Path many = root.resolve("many");
        RangeFiles two = range(many);
        String a = UuidV7.generate();
        String b = UuidV7.generate();
        Files.createDirectories(two.main().getParent());
        Files.write(two.main(), RangeFiles.encodeLine(IndexKeys.rangeKey(5L), 5L, 2, List.of(a, b), List.of()));
        two.appendDelta(List.of(RangeFiles.encodeLine(IndexKeys.rangeKey(1L), 1L, 1, List.of(UuidV7.generate()), List.of())));
        Map<String, String> twoBefore = files(many);
        assertThat(two.foldByMerge(two.deltaChanges())).as("a line of two ids").isFalse();
        assertThat(files(many)).isEqualTo(twoBefore);
        two.fold();
        Map<String, Object> state = new HashMap<>(two.load(null));
        assertThat(state).hasSize(3).containsEntry(a, 5L).containsEntry(b, 5L);
    }

    /**
     * Main lines that read like a fold's own but are not its bytes (another count, another key, an
     * integer written {@code -0}, an escaped character, white space) are written as the sort writes
     * them, while the fold's own lines are copied: the merge's files are still the sort's.
     */
    @Test
    void mainLinesNotInTheFoldsOwnFormAreWrittenAsTheSortWritesThem() throws IOException {
        for (long seed = 1; seed <= 6; seed++) {
            Random random = new Random(seed);
            Path merged = root.resolve("odd-forms-" + seed);
            RangeFiles rf = range(merged);
            List<byte[]> lines = new ArrayList<>();
            for (int i = 0; i < 400; i++) {
                Object v = i < 20 ? (Object) 0L : i < 40 ? (Object) ("s" + (i % 3)) : value(random);
                lines.add(RangeFiles.encodeLine(IndexKeys.rangeKey(v), v, 1, List.of(UuidV7.generate()), List.of()));
            }
            rf.appendDelta(lines);
            rf.fold(SortedRows.BUDGET_CHARS, false);
            List<String> main = new ArrayList<>(Files.readAllLines(rf.main()));
            int changedLines = 0;
            for (int i = 0; i < main.size(); i++) {
                String line = main.get(i);
                String odd = switch (random.nextInt(6)) {
                    case 0 -> line.replace("\"count\":1,", "\"count\":2,");
                    case 1 -> line.replaceFirst("\\{\"key\":\"[^\"]*\"", "{\"key\":\"s-00\"");
                    case 2 -> line.replace("\"value\":0,", "\"value\":-0,");
                    case 3 -> line.replace("\"value\":\"s", "\"value\":\"\\u0073");
                    case 4 -> line.replace(",\"ids\":", ", \"ids\":");
                    default -> line;
                };
                if (!odd.equals(line)) {
                    changedLines++;
                    main.set(i, odd);
                }
            }
            assertThat(changedLines).as("seed " + seed + ": lines in other forms").isGreaterThan(40);
            Files.write(rf.main(), main);
            List<byte[]> delta = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                Object v = value(random);
                delta.add(RangeFiles.encodeLine(IndexKeys.rangeKey(v), v, 1, List.of(UuidV7.generate()), List.of()));
            }
            rf.appendDelta(delta);
            Path sorted = root.resolve("odd-forms-sorted-" + seed);
            copy(merged, sorted);
            assertThat(rf.foldByMerge(rf.deltaChanges())).as("seed " + seed + ": merged").isTrue();
            range(sorted).fold(SortedRows.BUDGET_CHARS, false);
            assertThat(files(merged)).as("seed " + seed).isEqualTo(files(sorted));
            assertThat(Files.readString(rf.main())).doesNotContain("\"count\":2", "s-00", "-0,", "\\u0073", " ");
        }
    }
}
