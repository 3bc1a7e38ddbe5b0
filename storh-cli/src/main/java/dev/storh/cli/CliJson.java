package dev.storh.cli;

import dev.storh.json.CanonicalJson;
import java.util.Map;

/**
 * The JSON the command line prints, byte for byte as the original's:
 * pretty-printed with 4-space indentation and {@code ": "}, {@code /} not escaped, empty lists
 * {@code []}, and every non-ASCII character escaped as a backslash, {@code u} and four lowercase hex digits (UTF-16
 * units), so the output is plain ASCII whatever the terminal's encoding.
 */
final class CliJson {

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private CliJson() {
    }

    /**
     * @param value a JSON object in the core's JSON model ({@code toMap()} of a report)
     * @return the text, ending with one newline
     */
    static String pretty(Map<String, ?> value) {
        return asciiOnly(CanonicalJson.encodePretty(value));
    }

    /**
     * Escapes characters above U+007F. JSON text holds them only inside strings, where
     * a backslash, {@code u} and the four hex digits of its code unit mean the same character.
     *
     * @param json JSON text
     * @return the same JSON in ASCII
     */
    static String asciiOnly(String json) {
        StringBuilder out = null;
        for (int i = 0; i < json.length(); i++) {
            char c = json.charAt(i);
            if (c < 0x80) {
                if (out != null) {
                    out.append(c);
                }
                continue;
            }
            if (out == null) {
                out = new StringBuilder(json.length() + 16).append(json, 0, i);
            }
            out.append("\\u").append(HEX[(c >> 12) & 0xF]).append(HEX[(c >> 8) & 0xF])
                    .append(HEX[(c >> 4) & 0xF]).append(HEX[c & 0xF]);
        }
        return out == null ? json : out.toString();
    }
}
