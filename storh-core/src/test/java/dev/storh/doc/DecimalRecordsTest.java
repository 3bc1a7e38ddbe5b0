package dev.storh.doc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.StorageRecord;
import dev.storh.doc.index.IndexKeys;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Exact decimals (money) in record files, in indexes and in queries. */
class DecimalRecordsTest {

    @TempDir
    Path root;

    private static final String[] PRICES = {"19.990", "19.99", "12345678901234567890.123456789", "0.10", "0.1", "5", "5.00",
        "-2.50", "0.000000001", "19.9899999999999999999"};

    private static Map<String, Object> price(String text) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("price", new BigDecimal(text));
        m.put("cost", new BigDecimal(text));
        return m;
    }

    @Test
    void bigDecimalPricesRoundTripExactlyThroughTheFileWithScale() throws Exception {
        String id;
        try (DocStore store = DocStore.open(root, "books")) {
            id = store.put(price("19.990")).id();
            store.put(price("12345678901234567890.123456789"), "018bcfe5-6800-726c-a753-80d71a17e586");
        }
        try (DocStore store = DocStore.open(root, "books")) {
            assertThat(Files.readString(store.pathForId(id))).contains("\"price\":19.990");
            Object read = store.get(id).orElseThrow().data().get("price");
            assertThat(read).isEqualTo(new BigDecimal("19.990"));
            assertThat(((BigDecimal) read).toPlainString()).isEqualTo("19.990");
            assertThat(store.get("018bcfe5-6800-726c-a753-80d71a17e586").orElseThrow().data().get("price"))
                    .isEqualTo(new BigDecimal("12345678901234567890.123456789"));
        }
    }

    @Test
    void indexedDecimalQueriesEqualAScanAndVerifyStaysClean() {
        try (DocStore store = DocStore.open(root, "books")) {
            store.indexes().field("price").range().field("cost").sync();
            List<StorageRecord> all = new ArrayList<>();
            for (String p : PRICES) {
                all.add(store.put(price(p)));
            }
            store.put(Map.of("price", 19.99, "cost", 19.99));
            assertThat(store.verify().errors()).isEmpty();
            store.reindex();
            assertThat(store.verify().errors()).isEmpty();
        }
        try (DocStore store = DocStore.open(root, "books")) {
            List<StorageRecord> all = store.stream().toList();
            for (String p : PRICES) {
                BigDecimal bound = new BigDecimal(p);
                for (String field : List.of("price", "cost")) {
                    assertThat(ids(store.query().where(field).eq(bound).get()))
                            .as("%s eq %s", field, p).isEqualTo(scan(all, field,
                                    v -> compare(v, bound) == 0 && isFraction(v) == isFraction(bound)));
                    assertThat(ids(store.query().where(field).gte(bound).get()))
                            .as("%s gte %s", field, p).isEqualTo(scan(all, field, v -> compare(v, bound) >= 0));
                    assertThat(ids(store.query().where(field).lt(bound).get()))
                            .as("%s lt %s", field, p).isEqualTo(scan(all, field, v -> compare(v, bound) < 0));
                }
            }
            assertThat(ids(store.query().where("price").eq(new BigDecimal("19.9900")).get())).hasSize(3);
            assertThat(store.query().where("price").between(new BigDecimal("19.99"), new BigDecimal("19.990")).count()).isEqualTo(3);
            // The range key is the one the original computes from the double it reads (19.99).
            assertThat(IndexKeys.rangeKey(new BigDecimal("19.990"))).isEqualTo(IndexKeys.rangeKey(19.99));
            assertThat(IndexKeys.valueKey(new BigDecimal("19.990"))).isEqualTo(IndexKeys.valueKey(19.99));
        }
    }

    private static boolean isFraction(Object v) {
        Object m = dev.storh.query.Values.normalise(v);
        return m instanceof Double || m instanceof BigDecimal;
    }

    private static int compare(Object v, BigDecimal bound) {
        return dev.storh.json.JsonNumbers.decimalOf((Number) dev.storh.query.Values.normalise(v))
                .compareTo(bound);
    }

    private static List<String> scan(List<StorageRecord> all, String field, Predicate<Object> p) {
        return all.stream().filter(r -> p.test(r.data().get(field))).map(StorageRecord::id).sorted().toList();
    }

    private static List<String> ids(List<StorageRecord> records) {
        return records.stream().map(StorageRecord::id).toList();
    }
}
