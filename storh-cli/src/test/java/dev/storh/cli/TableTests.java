package dev.storh.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TableTests {

    @Test
    void keyValuesFlattenNestedObjectsAndListLinesOneAnItem() {
        Map<String, Object> stats = new LinkedHashMap<>();
        stats.put("records", 4L);
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("ok", false);
        report.put("errors", List.of("Corrupt records: 1", "Corrupt record: x.jsonc"));
        report.put("warnings", List.of());
        report.put("stats", stats);
        assertThat(Table.keyValues(report)).isEqualTo("""
                ok             false
                errors         Corrupt records: 1
                               Corrupt record: x.jsonc
                warnings       (none)
                stats.records  4
                """);
    }

    @Test
    void columnsRightAlignNumbers() {
        String table = Table.columns(List.of("NAME", "FILES", "SIZE"),
                List.of(List.of("cities", 4450L, "2.1 MiB"), List.of("jobs", 2L, "18.4 KiB")));
        assertThat(table).isEqualTo("""
                NAME    FILES  SIZE
                cities   4450  2.1 MiB
                jobs        2  18.4 KiB
                """);
    }

    @Test
    void humanBytesUsesBinaryUnits() {
        assertThat(Table.humanBytes(0)).isEqualTo("0 B");
        assertThat(Table.humanBytes(1023)).isEqualTo("1023 B");
        assertThat(Table.humanBytes(1024)).isEqualTo("1.0 KiB");
        assertThat(Table.humanBytes(655976)).isEqualTo("640.6 KiB");
        assertThat(Table.humanBytes(3L << 30)).isEqualTo("3.0 GiB");
    }
}
