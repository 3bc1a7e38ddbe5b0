package dev.storh.spring.data.types;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.YearMonth;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.stream.Collectors;

import dev.storh.store.VerifyReport;
import dev.storh.query.QueryPlan;
import dev.storh.spring.boot.autoconfigure.StorhAutoConfiguration;
import dev.storh.spring.data.config.EnableStorhAuditing;
import dev.storh.spring.data.core.StorhTemplate;
import dev.storh.spring.data.repository.config.EnableStorhRepositories;
import dev.storh.spring.data.repository.support.StorhRepositoryFactory;
import dev.storh.spring.data.types.TypedRecord.Level;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every simple type the converter supports, in a real application context with auditing on and
 * a real collection: saved, read back equal, found by equality and between derived queries on an
 * indexed and an unindexed property with the same answers as the values' own order gives, with
 * the plan {@code explain} promises, and a clean {@code verify()}.
 */
class TypeMatrixTests {

    @TempDir
    Path root;

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(StorhAutoConfiguration.class))
        .withUserConfiguration(Config.class);

    record Column(String field, String method, Class<?> type, List<?> values) {
    }

    static List<Column> columns() {
        List<Column> columns = new ArrayList<>();
        // CHECKSTYLE.OFF: LineLength (one row per value type reads as a table)
        columns.add(new Column("byte", "Byte", byte.class, List.of((byte) -128, (byte) -7, (byte) 0, (byte) 1, (byte) 5, (byte) 9, (byte) 42, (byte) 100, (byte) 120, (byte) 127)));
        columns.add(new Column("byteBox", "ByteBox", Byte.class, List.of((byte) -100, (byte) -1, (byte) 0, (byte) 2, (byte) 3, (byte) 8, (byte) 13, (byte) 50, (byte) 99, (byte) 126)));
        columns.add(new Column("short", "Short", short.class, List.of((short) -32768, (short) -300, (short) -1, (short) 0, (short) 7, (short) 255, (short) 256, (short) 1000, (short) 20000, (short) 32767)));
        columns.add(new Column("shortBox", "ShortBox", Short.class, List.of((short) -5, (short) -4, (short) 0, (short) 1, (short) 10, (short) 11, (short) 99, (short) 100, (short) 101, (short) 30000)));
        columns.add(new Column("int", "Int", int.class, List.of(Integer.MIN_VALUE, -1000000, -9, 0, 1, 9, 10, 100, 2000000000, Integer.MAX_VALUE)));
        columns.add(new Column("intBox", "IntBox", Integer.class, List.of(-77, -76, -1, 0, 3, 30, 300, 3000, 30000, 300000)));
        columns.add(new Column("long", "Long", long.class, List.of(Long.MIN_VALUE, -9007199254740993L, -1L, 0L, 1L, 9007199254740992L, 9007199254740993L, 1000000000000000000L, 9000000000000000000L, Long.MAX_VALUE)));
        columns.add(new Column("longBox", "LongBox", Long.class, List.of(-5L, -2L, 0L, 2L, 5L, 20L, 50L, 200L, 500L, 2000L)));
        columns.add(new Column("float", "Float", float.class, List.of(-3.4e38f, -1.5f, -0.1f, 0.0f, 0.1f, 0.2f, 1.1f, 2.5f, 1e10f, 3.4e38f)));
        columns.add(new Column("floatBox", "FloatBox", Float.class, List.of(-2.25f, -1.0f, 0.5f, 0.75f, 1.0f, 1.25f, 100.5f, 1000.25f, 1e20f, 1e30f)));
        columns.add(new Column("double", "Double", double.class, List.of(-1.7976931348623157e308, -1e20, -0.5, 0.0, 0.1, 0.30000000000000004, 1.0, 2.5, 1e20, 1.7976931348623157e308)));
        columns.add(new Column("doubleBox", "DoubleBox", Double.class, List.of(-3.0, -2.75, -0.001, 0.001, 0.5, 1.0E-5 + 1, 19.99, 20.0, 1.0E15, 1.0E300)));
        columns.add(new Column("bigDecimal", "BigDecimal", BigDecimal.class, List.of(new BigDecimal("-12345678901234567890.123456789"), new BigDecimal("-3.50"), new BigDecimal("-0.001"), new BigDecimal("0"), new BigDecimal("0.1"), new BigDecimal("1.10"), new BigDecimal("19.990"), new BigDecimal("20"), new BigDecimal("1000.000"), new BigDecimal("12345678901234567890.123456789"))));
        columns.add(new Column("bigInteger", "BigInteger", BigInteger.class, List.of(new BigInteger("-1180591620717411303424"), new BigInteger("-9223372036854775809"), BigInteger.valueOf(-1), BigInteger.ZERO, BigInteger.ONE, BigInteger.valueOf(1000), new BigInteger("9223372036854775807"), new BigInteger("9223372036854775808"), new BigInteger("18446744073709551616"), new BigInteger("1180591620717411303424"))));
        columns.add(new Column("string", "String", String.class, List.of("", "A", "Z", "a", "ab", "b", "\u00e9t\u00e9", "\u4e2d", "\uD83D\uDE00", "\uFFFD")));
        columns.add(new Column("localDate", "LocalDate", LocalDate.class, List.of(LocalDate.of(1, 1, 1), LocalDate.of(1969, 12, 31), LocalDate.of(1970, 1, 1), LocalDate.of(1999, 12, 31), LocalDate.of(2000, 2, 29), LocalDate.of(2024, 1, 9), LocalDate.of(2024, 1, 10), LocalDate.of(2024, 10, 1), LocalDate.of(2025, 1, 1), LocalDate.of(9999, 12, 31))));
        columns.add(new Column("localDateTime", "LocalDateTime", LocalDateTime.class, List.of(LocalDateTime.of(2024, 1, 1, 0, 0), LocalDateTime.of(2024, 1, 1, 0, 0, 0, 1), LocalDateTime.of(2024, 1, 1, 0, 0, 0, 100_000_000), LocalDateTime.of(2024, 1, 1, 0, 0, 0, 120_000_000), LocalDateTime.of(2024, 1, 1, 0, 0, 0, 500_000_000), LocalDateTime.of(2024, 1, 1, 0, 0, 1), LocalDateTime.of(2024, 1, 1, 0, 1), LocalDateTime.of(2024, 1, 1, 9, 59, 59, 999_999_999), LocalDateTime.of(2024, 1, 1, 10, 0), LocalDateTime.of(2024, 12, 31, 23, 59, 59))));
        columns.add(new Column("localTime", "LocalTime", LocalTime.class, List.of(LocalTime.MIDNIGHT, LocalTime.of(0, 0, 0, 1), LocalTime.of(0, 0, 0, 500_000_000), LocalTime.of(0, 0, 1), LocalTime.of(0, 1), LocalTime.of(9, 59, 59, 900_000_000), LocalTime.of(10, 0), LocalTime.of(10, 0, 0, 5), LocalTime.NOON, LocalTime.MAX)));
        columns.add(new Column("instant", "Instant", Instant.class, List.of(Instant.parse("1969-12-31T23:59:59.999Z"), Instant.EPOCH, Instant.parse("2024-01-01T10:00:00Z"), Instant.parse("2024-01-01T10:00:00.000001Z"), Instant.parse("2024-01-01T10:00:00.5Z"), Instant.parse("2024-01-01T10:00:01Z"), Instant.parse("2024-01-01T10:00:01.000000001Z"), Instant.parse("2024-01-01T10:00:10Z"), Instant.parse("2024-06-01T00:00:00Z"), Instant.parse("9999-12-31T23:59:59.999999999Z"))));
        columns.add(new Column("yearMonth", "YearMonth", YearMonth.class, List.of(YearMonth.of(1000, 1), YearMonth.of(1999, 12), YearMonth.of(2000, 1), YearMonth.of(2000, 2), YearMonth.of(2000, 10), YearMonth.of(2000, 11), YearMonth.of(2024, 1), YearMonth.of(2024, 9), YearMonth.of(2024, 12), YearMonth.of(9999, 12))));
        columns.add(new Column("offsetDateTime", "OffsetDateTime", OffsetDateTime.class, List.of(OffsetDateTime.parse("2024-01-01T10:00:00+14:00"), OffsetDateTime.parse("2024-01-01T08:00:00+02:00"), OffsetDateTime.parse("2024-01-01T06:00:00Z"), OffsetDateTime.parse("2024-01-01T06:00:00.5Z"), OffsetDateTime.parse("2024-01-01T02:00:00-05:00"), OffsetDateTime.parse("2024-01-01T12:00:00Z"), OffsetDateTime.parse("2024-01-02T00:00:00Z"), OffsetDateTime.parse("2024-01-02T00:00:00-12:00"), OffsetDateTime.parse("2025-01-01T00:00:00Z"), OffsetDateTime.parse("2025-01-01T00:00:00.000000001Z"))));
        columns.add(new Column("zonedDateTime", "ZonedDateTime", ZonedDateTime.class, List.of(ZonedDateTime.parse("2024-01-01T10:00:00+01:00[Europe/Paris]"), ZonedDateTime.parse("2024-01-01T10:00:00Z[UTC]"), ZonedDateTime.parse("2024-03-31T03:30:00+02:00[Europe/Paris]"), ZonedDateTime.parse("2024-06-01T00:00:00-04:00[America/New_York]"), ZonedDateTime.parse("2024-06-01T12:00:00Z[UTC]"), ZonedDateTime.parse("2024-07-01T00:00:00+09:00[Asia/Tokyo]"), ZonedDateTime.parse("2024-08-01T00:00:00Z[UTC]"), ZonedDateTime.parse("2024-09-01T00:00:00.25Z[UTC]"), ZonedDateTime.parse("2024-10-01T00:00:00+02:00[Europe/Paris]"), ZonedDateTime.parse("2024-12-01T00:00:00Z[UTC]"))));
        columns.add(new Column("uuid", "Uuid", UUID.class, List.of(new UUID(Long.MIN_VALUE, 0), new UUID(-1L, -1L), UUID.fromString("00000000-0000-0000-0000-000000000000"), UUID.fromString("018bcfe5-6800-7286-af1e-f6f686dbda0b"), UUID.fromString("018bcfe5-6800-7286-af1e-f6f686dbda0c"), UUID.fromString("7fffffff-ffff-4fff-bfff-ffffffffffff"), new UUID(Long.MAX_VALUE, 1), UUID.fromString("a0000000-0000-4000-8000-000000000000"), UUID.fromString("f0000000-0000-4000-8000-000000000000"), new UUID(Long.MAX_VALUE, Long.MAX_VALUE))));
        columns.add(new Column("bool", "Bool", boolean.class, List.of(false, true)));
        columns.add(new Column("level", "Level", Level.class, List.of(Level.values())));
        // CHECKSTYLE.ON: LineLength
        return columns;
    }

    @Test
    void everyTypeRoundTripsAndIsQueriedFromItsIndexWithTheAnswersOfItsOwnOrder() {
        this.contextRunner.withPropertyValues("storh.root=" + this.root).run((context) -> {
            TypedRecordRepository repository = context.getBean(TypedRecordRepository.class);
            StorhTemplate template = context.getBean(StorhTemplate.class);
            List<Column> columns = columns();
            // record i holds value i % size of each column; record 10 repeats the values of record 3
            List<TypedRecord> saved = new ArrayList<>();
            for (int i = 0; i <= 10; i++) {
                TypedRecord record = new TypedRecord();
                for (Column column : columns) {
                    Object value = column.values().get(((i == 10) ? 3 : i) % column.values().size());
                    field(column.field() + "Idx").set(record, value);
                    field(column.field() + "Plain").set(record, value);
                }
                saved.add(repository.save(record));
            }
            StorhRepositoryFactory factory = new StorhRepositoryFactory(template);
            for (Column column : columns) {
                checkColumn(column, saved, repository, factory);
            }
            VerifyReport<?> report = template.docStore(TypedRecord.class).verify();
            assertThat(report.errors()).as("verify").isEmpty();
            assertThat(report.ok()).isTrue();
        });
    }

    private void checkColumn(Column column, List<TypedRecord> saved, TypedRecordRepository repository,
            StorhRepositoryFactory factory) throws Exception {
        String what = column.field() + " (" + column.type().getName() + ")";
        Field idx = field(column.field() + "Idx");
        for (TypedRecord record : saved) {
            TypedRecord read = repository.findById(record.id).orElseThrow();
            assertThat(idx.get(read)).as(what + " round trip").isEqualTo(idx.get(record));
            assertThat(field(column.field() + "Plain").get(read)).as(what + " round trip").isEqualTo(idx.get(record));
        }
        List<?> values = column.values();
        Object probe = values.get(3 % values.size());
        Object from = values.get(Math.min(2, values.size() - 2));
        Object to = values.get(Math.min(6, values.size() - 1));
        boolean ordered = isRange(idx);
        Set<String> expectedEquals = new TreeSet<>();
        Set<String> expectedBetween = new TreeSet<>();
        for (TypedRecord record : saved) {
            Object value = idx.get(record);
            if (value.equals(probe)) {
                expectedEquals.add(record.id);
            }
            if (ordered && compare(value, from) >= 0 && compare(value, to) <= 0) {
                expectedBetween.add(record.id);
            }
        }
        assertThat(expectedEquals).as(what).isNotEmpty();
        if (ordered) {
            assertThat(expectedBetween).as(what).hasSizeGreaterThan(expectedEquals.size());
        }
        for (String variant : List.of("Idx", "Plain")) {
            String equals = "findBy" + column.method() + variant;
            String between = equals + "Between";
            assertThat(ids(invoke(repository, equals, column.type(), probe))).as(what + " " + equals + "(" + probe + ")")
                .isEqualTo(expectedEquals);
            boolean indexed = variant.equals("Idx");
            QueryPlan equalsPlan = factory.explain(TypedRecordRepository.class, equals, probe);
            assertThat(equalsPlan.plan()).as(what + " explain " + equals)
                .isEqualTo(indexed ? QueryPlan.INDEX_SCAN : QueryPlan.FULL_SCAN);
            if (ordered) {
                assertThat(ids(invoke(repository, between, column.type(), from, to)))
                    .as(what + " " + between + "(" + from + ", " + to + ")")
                    .isEqualTo(expectedBetween);
                QueryPlan betweenPlan = factory.explain(TypedRecordRepository.class, between, from, to);
                assertThat(betweenPlan.plan()).as(what + " explain " + between)
                    .isEqualTo(indexed ? QueryPlan.INDEX_SCAN : QueryPlan.FULL_SCAN);
            }
        }
    }

    @SuppressWarnings({ "unchecked", "rawtypes" })
    private static int compare(Object a, Object b) {
        return ((Comparable) a).compareTo(b);
    }

    private static boolean isRange(Field field) {
        dev.storh.spring.data.mapping.Indexed indexed = field.getAnnotation(dev.storh.spring.data.mapping.Indexed.class);
        return indexed != null && indexed.range();
    }

    private static List<?> invoke(TypedRecordRepository repository, String name, Class<?> type, Object... arguments)
            throws Exception {
        Class<?>[] parameters = new Class<?>[arguments.length];
        java.util.Arrays.fill(parameters, type);
        Method method = TypedRecordRepository.class.getMethod(name, parameters);
        return (List<?>) method.invoke(repository, arguments);
    }

    private static Set<String> ids(List<?> records) {
        return records.stream().map((r) -> ((TypedRecord) r).id).collect(Collectors.toCollection(TreeSet::new));
    }

    private static Field field(String name) throws NoSuchFieldException {
        return TypedRecord.class.getField(name);
    }

    @Configuration(proxyBeanMethods = false)
    @EnableStorhAuditing
    @EnableStorhRepositories(basePackageClasses = TypedRecordRepository.class)
    static class Config {

    }

}
