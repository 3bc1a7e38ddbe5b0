package dev.storh.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Renders command results for people ({@code --format table}): a report as aligned
 * {@code key  value} rows, nested objects with dotted keys ({@code stats.records}) and lists one
 * item a row; a listing as columns with a header. Numbers are right-aligned in columns.
 */
final class Table {

    private Table() {
    }

    /**
     * @param report a JSON object in the core's JSON model
     * @return the rows, each ending with a newline
     */
    static String keyValues(Map<String, ?> report) {
        List<String[]> rows = new ArrayList<>();
        flatten("", report, rows);
        int width = rows.stream().mapToInt(r -> r[0].length()).max().orElse(0);
        StringBuilder out = new StringBuilder();
        for (String[] row : rows) {
            out.append(pad(row[0], width)).append("  ").append(row[1]).append('\n');
        }
        return out.toString();
    }

    /**
     * @param headers column titles
     * @param rows cells, as many as titles per row; {@link Number} cells are right-aligned
     * @return the header line and one line per row, each ending with a newline
     */
    static String columns(List<String> headers, List<List<Object>> rows) {
        int[] widths = new int[headers.size()];
        for (int c = 0; c < widths.length; c++) {
            widths[c] = headers.get(c).length();
            for (List<Object> row : rows) {
                widths[c] = Math.max(widths[c], String.valueOf(row.get(c)).length());
            }
        }
        StringBuilder out = new StringBuilder();
        List<Object> titleRow = new ArrayList<>(headers);
        line(out, titleRow, widths, false);
        for (List<Object> row : rows) {
            line(out, row, widths, true);
        }
        return out.toString();
    }

    /**
     * @param bytes a size in bytes
     * @return e.g. {@code 640.6 KiB}, {@code 12 B}
     */
    static String humanBytes(long bytes) {
        if (bytes < 1024) {
            return bytes + " B";
        }
        String[] units = {"KiB", "MiB", "GiB", "TiB", "PiB"};
        double v = bytes;
        int u = -1;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return String.format(Locale.ROOT, "%.1f %s", v, units[u]);
    }

    private static void line(StringBuilder out, List<Object> cells, int[] widths, boolean alignNumbers) {
        StringBuilder line = new StringBuilder();
        for (int c = 0; c < widths.length; c++) {
            Object cell = cells.get(c);
            String text = String.valueOf(cell);
            if (c > 0) {
                line.append("  ");
            }
            if (alignNumbers && cell instanceof Number) {
                line.append(" ".repeat(widths[c] - text.length())).append(text);
            } else {
                line.append(c == widths.length - 1 ? text : pad(text, widths[c]));
            }
        }
        out.append(line.toString().stripTrailing()).append('\n');
    }

    @SuppressWarnings("unchecked")
    private static void flatten(String prefix, Map<String, ?> map, List<String[]> rows) {
        for (Map.Entry<String, ?> e : map.entrySet()) {
            String key = prefix + e.getKey();
            Object value = e.getValue();
            if (value instanceof Map<?, ?> nested) {
                flatten(key + ".", (Map<String, ?>) nested, rows);
            } else if (value instanceof List<?> list) {
                if (list.isEmpty()) {
                    rows.add(new String[] {key, "(none)"});
                }
                for (int i = 0; i < list.size(); i++) {
                    rows.add(new String[] {i == 0 ? key : "", String.valueOf(list.get(i))});
                }
            } else {
                rows.add(new String[] {key, String.valueOf(value)});
            }
        }
    }

    private static String pad(String s, int width) {
        return s.length() >= width ? s : s + " ".repeat(width - s.length());
    }
}
