package dev.storh.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CliJsonTests {

    @Test // spec/cli.md §2: 4-space indent, ": ", "/" unescaped, non-ASCII as \\uXXXX, empty lists []
    void printsTheOriginalsPrettyJson() {
        Map<String, Object> stats = new LinkedHashMap<>();
        stats.put("records", 4L);
        stats.put("corrupt", 1L);
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("ok", false);
        report.put("errors", List.of("Corrupt record: a/b/Zürich 東京 🙂.jsonc"));
        report.put("none", List.of());
        report.put("stats", stats);
        assertThat(CliJson.pretty(report)).isEqualTo("""
                {
                    "ok": false,
                    "errors": [
                        "Corrupt record: a/b/Z\\u00fcrich \\u6771\\u4eac \\ud83d\\ude42.jsonc"
                    ],
                    "none": [],
                    "stats": {
                        "records": 4,
                        "corrupt": 1
                    }
                }
                """);
    }

    @Test
    void leavesAsciiTextAsItIs() {
        String json = "{\"a\": \"x/y\"}\n";
        assertThat(CliJson.asciiOnly(json)).isSameAs(json);
    }
}
