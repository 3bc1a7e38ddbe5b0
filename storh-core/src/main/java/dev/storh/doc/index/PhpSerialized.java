package dev.storh.doc.index;

import dev.storh.json.CanonicalJson;
import dev.storh.json.JsonNumbers;
import dev.storh.json.Jsonc;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.Map;

/**
 * The text PHP's {@code serialize()} gives for a decoded JSON value, which the original hashes into
 * the value key of a list or object ({@code z-…}). Lists and objects are never indexed, so this only
 * keeps {@link IndexKeys} total. Objects and lists both become PHP arrays (an empty object is
 * {@code a:0:{}}); integer-like object keys become integer keys; fractions and integers beyond 64
 * bits are PHP floats. Stateless.
 */
final class PhpSerialized {

    private PhpSerialized() {
    }

    static void append(Object v, StringBuilder out) {
        if (v == null) {
            out.append("N;");
        } else if (v instanceof Boolean b) {
            out.append(b ? "b:1;" : "b:0;");
        } else if (v instanceof Long || v instanceof Integer) {
            out.append("i:").append(v).append(';');
        } else if (v instanceof Double || v instanceof BigDecimal || v instanceof BigInteger) {
            out.append("d:").append(phpFloat(JsonNumbers.originalDouble((Number) v))).append(';');
        } else if (v instanceof String s) {
            string(s, out);
        } else if (v instanceof Map<?, ?> m) {
            out.append("a:").append(m.size()).append(":{");
            for (Map.Entry<?, ?> e : m.entrySet()) {
                String key = String.valueOf(e.getKey());
                if (Jsonc.isIntegerLike(key)) {
                    out.append("i:").append(key).append(';');
                } else {
                    string(key, out);
                }
                append(e.getValue(), out);
            }
            out.append('}');
        } else if (v instanceof Collection<?> c) {
            out.append("a:").append(c.size()).append(":{");
            int i = 0;
            for (Object item : c) {
                out.append("i:").append(i++).append(';');
                append(item, out);
            }
            out.append('}');
        } else {
            string(String.valueOf(v), out);
        }
    }

    private static void string(String s, StringBuilder out) {
        out.append("s:").append(s.getBytes(StandardCharsets.UTF_8).length).append(":\"").append(s).append("\";");
    }

    /** PHP's shortest float text: the canonical digits, {@code E} for exponents, no {@code .0} on plain integers. */
    private static String phpFloat(double d) {
        String canonical = CanonicalJson.formatDouble(d);
        int e = canonical.indexOf('e');
        if (e >= 0) {
            return canonical.substring(0, e) + "E" + canonical.substring(e + 1);
        }
        return canonical.endsWith(".0") ? canonical.substring(0, canonical.length() - 2) : canonical;
    }
}
