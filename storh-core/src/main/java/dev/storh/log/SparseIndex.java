package dev.storh.log;

import dev.storh.fs.AtomicFiles;
import dev.storh.fs.StoreFiles;
import dev.storh.json.Jsonc;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The sparse index of a sealed segment, {@code <segment>.idx.jsonc}:
 *
 * <pre>
 * {"entries":[{"id":"&lt;id of line 0&gt;","offset":0},{"id":"&lt;id of line k&gt;","offset":&lt;byte offset&gt;},…]}\n
 * </pre>
 *
 * One entry for every {@code sparseIndexInterval}-th line of the segment (line 0 included), in file
 * order, written once as compact JSON plus LF by atomic replace (temp file, fsync, rename, folder fsync)
 * when the segment is sealed. The entries are only seek hints: a reader starts at the offset of the
 * last entry whose id is {@code <=} the id it seeks, in an ordered segment. Any interval can be read.
 * storh for Java keeps the same entries in memory (rebuilt by the open scan), so a missing or damaged
 * idx file never stops a stream. Stateless and thread-safe.
 */
final class SparseIndex {

    /**
     * @param id the id on the line
     * @param offset the line's byte offset in its segment
     */
    record Entry(String id, long offset) {
    }

    private SparseIndex() {
    }

    /**
     * @param entries entries in file order
     * @return {@code {"entries":[…]}\n}
     */
    static byte[] encode(List<Entry> entries) {
        StringBuilder out = new StringBuilder(16 + entries.size() * 64).append("{\"entries\":[");
        for (int i = 0; i < entries.size(); i++) {
            Entry e = entries.get(i);
            if (i > 0) {
                out.append(',');
            }
            out.append("{\"id\":\"").append(e.id()).append("\",\"offset\":").append(e.offset()).append('}');
        }
        return out.append("]}\n").toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Writes an idx file atomically through the log's byte seam.
     *
     * @param files the collection's byte seam
     * @param name the idx file's name, {@code segments/<segment>.idx.jsonc}
     * @param entries entries in file order
     * @throws dev.storh.StorageException naming the path; the old file (if any) is then unchanged
     */
    static void write(StoreFiles files, String name, List<Entry> entries) {
        AtomicFiles.writeAtomic(files, name, encode(entries));
    }

    /**
     * Reads an idx file leniently (JSONC accepted, malformed entries skipped).
     *
     * @param files the collection's byte seam
     * @param name the idx file's name
     * @return its entries; empty when the file is missing or unreadable
     */
    static List<Entry> read(StoreFiles files, String name) {
        List<Entry> entries = new ArrayList<>();
        try (InputStream in = files.open(name)) {
            Object list = Jsonc.decodeObject(in.readAllBytes()).get("entries");
            if (list instanceof List<?> items) {
                for (Object item : items) {
                    if (item instanceof Map<?, ?> m && m.get("id") instanceof String id
                            && m.get("offset") instanceof Long offset && offset >= 0) {
                        entries.add(new Entry(id, offset));
                    }
                }
            }
        } catch (NoSuchFileException e) {
            return entries;
        } catch (IOException | RuntimeException e) {
            return new ArrayList<>();
        }
        return entries;
    }

    /**
     * Checks an idx file against its segment, for verify: it must decode as {@code {"entries":[…]}},
     * each entry an id and an offset (increasing), and each offset must start the line of that id.
     * Any interval passes. The offsets are only hints to this library, but the original seeks with
     * them, so a wrong one is damage.
     *
     * @param files the collection's byte seam
     * @param name the idx file's name, {@code segments/<segment>.idx.jsonc}
     * @param segment the segment's name, {@code segments/<segment>.ndjson}
     * @return what is wrong, or {@code null} when the file is sound or missing (or its segment is)
     */
    static String problem(StoreFiles files, String name, String segment) {
        Object list;
        try (InputStream in = files.open(name)) {
            list = Jsonc.decodeObject(in.readAllBytes()).get("entries");
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException | RuntimeException e) {
            return "does not decode (" + e.getMessage() + ")";
        }
        if (!(list instanceof List<?> items)) {
            return "has no entries list";
        }
        long previous = -1;
        try (StoreFiles.Input in = files.openInput(segment)) {
            for (Object item : items) {
                if (!(item instanceof Map<?, ?> m && m.get("id") instanceof String id && m.get("offset") instanceof Long offset
                        && offset > previous)) {
                    return "has a malformed or out-of-order entry " + item;
                }
                previous = offset;
                String found = idAt(files, in, segment, offset);
                if (!id.equals(found)) {
                    return "names " + id + " at offset " + offset + ", where the segment has " + (found == null ? "no line start" : found);
                }
            }
        } catch (NoSuchFileException e) {
            return null; // a missing segment is its own problem
        } catch (IOException e) {
            return "cannot be checked against " + segment + " (" + e.getMessage() + ")";
        }
        return null;
    }

    /** @return the id of the line starting at {@code offset}, or {@code null} when no decodable line starts there */
    private static String idAt(StoreFiles files, StoreFiles.Input in, String segment, long offset) throws IOException {
        byte[] before = new byte[1];
        if (offset > 0 && (in.read(before, 0, 1, offset - 1) != 1 || before[0] != '\n')) {
            return null;
        }
        SegmentReader reader = new SegmentReader(in, offset, in.size(), 1024);
        if (!reader.next() || !reader.terminated()) {
            return null;
        }
        try {
            return LogLine.decode(reader.line(), files.path(segment), offset, false).id();
        } catch (RuntimeException e) {
            return null;
        }
    }

    /**
     * @param entries entries in file order (ids increasing in an ordered segment)
     * @param count how many leading entries to consider
     * @param seekId the id to seek
     * @return the offset of the last entry whose id is {@code <= seekId}, or 0
     */
    static long seek(List<Entry> entries, int count, String seekId) {
        int lo = 0;
        int hi = count - 1;
        long found = 0;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            Entry e = entries.get(mid);
            if (e.id().compareTo(seekId) <= 0) {
                found = e.offset();
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found;
    }
}
