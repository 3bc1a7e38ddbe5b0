package dev.storh.doc;

import dev.storh.fs.FramedLine;
import dev.storh.id.UuidV7;
import dev.storh.json.Jsonc;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * The lines of the batch journal (docs/batch-journal.md): framed JSON lines, one per put or
 * delete, each group ended by a commit line. Stateless.
 */
final class JournalLines {

    private JournalLines() {
    }

    /**
     * @param entries the group's puts and deletes, in order
     * @return their framed lines (the commit line not yet)
     */
    static ByteArrayOutputStream group(List<BatchJournal.Entry> entries) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Base64.Encoder base64 = Base64.getEncoder();
        for (BatchJournal.Entry p : entries) {
            String json = p.bytes() == null ? "{\"delete\":\"" + p.id() + "\"}"
                    : "{\"id\":\"" + p.id() + "\",\"bytes\":\"" + base64.encodeToString(p.bytes()) + "\"}";
            out.writeBytes(FramedLine.encode(json.getBytes(StandardCharsets.UTF_8)));
        }
        return out;
    }

    /**
     * @param lines how many lines the group has
     * @param writer the writing instance's name
     * @param seq the instance's count of its appends, this one included
     * @return the framed commit line
     */
    static byte[] commit(int lines, String writer, long seq) {
        return FramedLine.encode(("{\"commit\":" + lines + ",\"writer\":\"" + writer + "\",\"seq\":" + seq + "}")
                .getBytes(StandardCharsets.UTF_8));
    }

    /**
     * @param bytes the journal's bytes from the start of a group
     * @return the entries of its committed groups, in order; a torn or corrupt line, a group
     *     without its commit line and all after it are left out
     */
    static List<BatchJournal.Entry> committed(byte[] bytes) {
        List<BatchJournal.Entry> out = new ArrayList<>();
        List<BatchJournal.Entry> group = new ArrayList<>();
        Base64.Decoder base64 = Base64.getDecoder();
        int start = 0;
        while (start < bytes.length) {
            int lf = indexOf(bytes, start);
            if (lf < 0) {
                break; // torn
            }
            Map<String, Object> line;
            try {
                line = Jsonc.decodeObject(FramedLine.decode(Arrays.copyOfRange(bytes, start, lf + 1), true));
            } catch (RuntimeException corrupt) {
                break;
            }
            start = lf + 1;
            if (line.containsKey("commit")) {
                if (!(line.get("commit") instanceof Number n) || n.longValue() != group.size()) {
                    break;
                }
                out.addAll(group);
                group.clear();
            } else if (line.get("id") instanceof String id && UuidV7.isValid(id) && line.get("bytes") instanceof String b
                    && decodes(base64, b)) {
                group.add(new BatchJournal.Entry(id, base64.decode(b)));
            } else if (line.get("delete") instanceof String id && UuidV7.isValid(id)) {
                group.add(new BatchJournal.Entry(id, null));
            } else {
                break; // not a line the journal writes: nothing from here on is replayed
            }
        }
        return out;
    }

    private static boolean decodes(Base64.Decoder base64, String b) {
        try {
            base64.decode(b);
            return true;
        } catch (IllegalArgumentException notBase64) {
            return false;
        }
    }

    private static int indexOf(byte[] bytes, int from) {
        for (int i = from; i < bytes.length; i++) {
            if (bytes[i] == '\n') {
                return i;
            }
        }
        return -1;
    }
}
