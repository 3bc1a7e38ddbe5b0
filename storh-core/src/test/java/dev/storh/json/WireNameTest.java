package dev.storh.json;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.mirror.Dialect;
import dev.storh.query.Operator;
import dev.storh.schema.FieldType;
import dev.storh.store.StoreKind;
import java.util.Arrays;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class WireNameTest {

    private static String[] labels(WireName[] constants) {
        return Arrays.stream(constants).map(WireName::label).toArray(String[]::new);
    }

    @Test
    void everyEnumKeepsTheWordsItIsKnownBy() {
        assertThat(labels(Operator.values())).containsExactly("eq", "neq", "in", "not_in", "gt", "gte", "lt", "lte",
                "between", "exists", "missing", "prefix", "suffix", "contains", "not_contains", "like", "not_like", "regex",
                "has", "not_has");
        assertThat(labels(StoreKind.values())).containsExactly("collection", "log", "queue");
        assertThat(labels(Dialect.values())).containsExactly("sqlite", "mysql", "postgresql");
        assertThat(labels(FieldType.values())).containsExactly("string", "int", "float", "bool", "mixed");
    }

    @Test
    void lookupByWireNameIsExact() {
        assertThat(WireName.byLabel(Operator.class, "not_in")).contains(Operator.NOT_IN);
        assertThat(WireName.byLabel(FieldType.class, "int")).contains(FieldType.INTEGER);
        assertThat(WireName.byLabel(FieldType.class, "integer")).isEqualTo(Optional.empty());
        assertThat(WireName.byLabel(StoreKind.class, "LOG")).isEmpty();
        assertThat(WireName.byLabel(StoreKind.class, null)).isEmpty();
        assertThat(Dialect.ofName(" PostgreSQL ")).isEqualTo(Dialect.POSTGRESQL);
    }
}
