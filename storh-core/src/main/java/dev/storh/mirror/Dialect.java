package dev.storh.mirror;

import dev.storh.StorageException;
import dev.storh.json.WireName;
import java.util.Locale;

/**
 * The SQL dialects the mirror writes: identifier quoting, column types and how indexes and
 * replacements are expressed. The table layout per dialect is in {@code docs/mirror.md}. The
 * dialect's name ({@link #label()}) is {@code sqlite}, {@code mysql} or {@code postgresql}.
 */
public enum Dialect implements WireName {
    /** SQLite: double-quoted identifiers, separate {@code CREATE INDEX} statements. */
    SQLITE,
    /** MySQL and MariaDB: backticks, indexes inside {@code CREATE TABLE}, InnoDB with utf8mb4. */
    MYSQL,
    /** PostgreSQL: double quotes, a {@code JSONB} data column, {@code ON CONFLICT} upserts. */
    POSTGRESQL;

    /**
     * @param name a dialect name as given by a caller, any letter case
     * @return the dialect
     * @throws StorageException {@code "Unsupported SQL mirror driver: <name>"}
     */
    public static Dialect ofName(String name) {
        String lower = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
        return WireName.byLabel(Dialect.class, lower)
                .orElseThrow(() -> new StorageException("Unsupported SQL mirror driver: " + name));
    }

    /**
     * @param productName a JDBC database product name, e.g. {@code SQLite}, {@code MariaDB}
     * @return the dialect for it
     * @throws StorageException {@code "Unsupported SQL mirror driver: <name>"}
     */
    public static Dialect ofProductName(String productName) {
        String lower = productName == null ? "" : productName.toLowerCase(Locale.ROOT);
        if (lower.contains("sqlite")) {
            return SQLITE;
        }
        if (lower.contains("mysql") || lower.contains("mariadb")) {
            return MYSQL;
        }
        if (lower.contains("postgres")) {
            return POSTGRESQL;
        }
        throw new StorageException("Unsupported SQL mirror driver: " + productName);
    }

    String quote(String identifier) {
        return this == MYSQL ? "`" + identifier + "`" : "\"" + identifier + "\"";
    }

    String idType() {
        return switch (this) {
            case SQLITE, POSTGRESQL -> "TEXT NOT NULL PRIMARY KEY";
            case MYSQL -> "CHAR(36) NOT NULL PRIMARY KEY";
        };
    }

    String hashType() {
        return this == MYSQL ? "CHAR(32) NOT NULL" : "TEXT NOT NULL";
    }

    String dataType() {
        return switch (this) {
            case SQLITE -> "TEXT NOT NULL";
            case MYSQL -> "LONGTEXT NOT NULL";
            case POSTGRESQL -> "JSONB NOT NULL";
        };
    }

    String columnType(MirrorColumn column) {
        return switch (column.type()) {
            case STRING -> this == MYSQL && column.indexed() ? "VARCHAR(191)" : "TEXT";
            case INT -> this == SQLITE ? "INTEGER" : "BIGINT";
            case FLOAT -> switch (this) {
                case SQLITE -> "REAL";
                case MYSQL -> "DOUBLE";
                case POSTGRESQL -> "DOUBLE PRECISION";
            };
            case BOOL -> switch (this) {
                case SQLITE -> "INTEGER";
                case MYSQL -> "TINYINT(1)";
                case POSTGRESQL -> "BOOLEAN";
            };
        };
    }

    /** @return the placeholder for the data column: PostgreSQL casts the bound text to JSONB */
    String dataPlaceholder() {
        return this == POSTGRESQL ? "CAST(? AS JSONB)" : "?";
    }

    /**
     * How many rows one INSERT statement carries when many rows are written: SQLite runs a
     * statement of up to 100 rows (at most 999 placeholders, its historical limit) for less per-row
     * work than one execution per row; the servers' drivers batch single-row statements themselves.
     *
     * @param columns the table's column count
     * @return rows per INSERT, 1 or more
     */
    int rowsPerInsert(int columns) {
        return this == SQLITE ? Math.max(1, Math.min(100, 999 / Math.max(1, columns))) : 1;
    }

    /**
     * SQLite rewrites a changed row whose typed columns keep their values with one UPDATE of its
     * hash and data (the row keeps its place; no index of a typed column is touched, and a text
     * identical to the stored one writes no page), and only the other changed rows by DELETE then
     * INSERT. The servers rewrite every changed row as {@link #upserts()} says.
     *
     * @return whether changed rows are first tried in place
     */
    boolean rewritesInPlace() {
        return this == SQLITE;
    }

    /** @return whether a changed row is written by one upsert instead of DELETE then INSERT */
    boolean upserts() {
        return this == POSTGRESQL;
    }
}
