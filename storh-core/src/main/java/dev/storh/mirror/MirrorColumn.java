package dev.storh.mirror;

import dev.storh.StorageException;
import dev.storh.schema.FieldType;
import dev.storh.schema.Schema;
import dev.storh.schema.SchemaField;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * One typed column of a mirror table, mapped from a schema field: named like the field, filled
 * from the record's top-level member of that name when it has the column's JSON type, else NULL.
 */
record MirrorColumn(String name, Type type, boolean unique, boolean indexed) {

    private static final Pattern NAME = Pattern.compile("[A-Za-z][A-Za-z0-9_]*");

    enum Type { STRING, INT, FLOAT, BOOL }

    /**
     * Maps schema fields to columns in declaration order; non-indexed mixed fields are skipped.
     *
     * @throws StorageException for an indexed mixed field or a field name that cannot be a column
     */
    static List<MirrorColumn> of(Schema schema) {
        List<MirrorColumn> columns = new ArrayList<>();
        if (schema == null) {
            return columns;
        }
        for (SchemaField f : schema.fields()) {
            if (f.type() == FieldType.MIXED) {
                if (f.indexed()) {
                    throw new StorageException("SQL mirror cannot index mixed schema field: " + f.name());
                }
                continue;
            }
            String lower = f.name().toLowerCase(Locale.ROOT);
            if (!NAME.matcher(f.name()).matches() || lower.equals("id") || lower.equals("hash") || lower.equals("data")) {
                throw new StorageException("SQL mirror cannot map schema field name: " + f.name());
            }
            Type type = switch (f.type()) {
                case STRING -> Type.STRING;
                case INTEGER -> Type.INT;
                case NUMBER -> Type.FLOAT;
                case BOOL -> Type.BOOL;
                case MIXED -> throw new IllegalStateException();
            };
            columns.add(new MirrorColumn(f.name(), type, f.unique(), f.indexed()));
        }
        return columns;
    }

    /**
     * @param value the record's member (may be absent: {@code null})
     * @param dialect decides how booleans are bound
     * @return the value to bind: String, Long, Double, Integer 0/1 or Boolean, or {@code null}
     */
    Object bind(Object value, Dialect dialect) {
        return switch (type) {
            case STRING -> value instanceof String ? value : null;
            case INT -> integer(value);
            case FLOAT -> value instanceof Number n && Double.isFinite(n.doubleValue()) ? n.doubleValue() : null;
            case BOOL -> value instanceof Boolean b ? (dialect == Dialect.POSTGRESQL ? b : Integer.valueOf(b ? 1 : 0)) : null;
        };
    }

    private static Long integer(Object value) {
        if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return ((Number) value).longValue();
        }
        if (value instanceof BigInteger b && b.bitLength() < 64) {
            return b.longValue();
        }
        return null;
    }
}
