package dev.storh.mirror;

import dev.storh.StorageRecord;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;

/**
 * One registered collection: its source store, its table and the SQL text for that table in one
 * dialect. Columns, in order: {@code id}, {@code hash}, one per typed schema field, {@code data}.
 * Identifiers are quoted; every value is bound through a {@code ?} placeholder.
 *
 * @param collection the collection's name as registered
 * @param table the table's name, prefix included
 * @param source the store the rows are copied from
 * @param columns one column per typed schema field, in the schema's order
 * @param dialect the SQL dialect of the statements
 */
record MirrorTable(String collection, String table, MirrorSource source, List<MirrorColumn> columns, Dialect dialect) {

    MirrorTable {
        columns = List.copyOf(columns);
    }

    /**
     * @param others the collections registered before this one
     * @throws dev.storh.StorageException {@code "SQL mirror table for <name> collides with collection
     *     <other>: <table>"} or {@code "…: index <index>"} when one of them has a table or an index of
     *     the same name (letter case ignored for tables)
     */
    void refuseCollisions(java.util.Collection<MirrorTable> others) {
        for (MirrorTable other : others) {
            if (other.table().equalsIgnoreCase(table)) {
                throw new dev.storh.StorageException("SQL mirror table for " + collection + " collides with collection "
                        + other.collection() + ": " + table);
            }
        }
        for (MirrorTable other : others) {
            for (String index : indexNames()) {
                if (other.indexNames().contains(index)) {
                    throw new dev.storh.StorageException("SQL mirror table for " + collection
                            + " collides with collection " + other.collection() + ": index " + index);
                }
            }
        }
    }

    private String q(String identifier) {
        return dialect.quote(identifier);
    }

    private String indexName(MirrorColumn c) {
        return table + "_" + c.name().toLowerCase(Locale.ROOT) + "_idx";
    }

    /** @return CREATE TABLE, then (SQLite, PostgreSQL) one CREATE [UNIQUE] INDEX per indexed column */
    List<String> createStatements() {
        StringJoiner defs = new StringJoiner(", ");
        defs.add(q("id") + " " + dialect.idType());
        defs.add(q("hash") + " " + dialect.hashType());
        for (MirrorColumn c : columns) {
            defs.add(q(c.name()) + " " + dialect.columnType(c));
        }
        defs.add(q("data") + " " + dialect.dataType());
        List<String> statements = new ArrayList<>();
        if (dialect == Dialect.MYSQL) {
            for (MirrorColumn c : columns) {
                if (c.indexed()) {
                    defs.add((c.unique() ? "UNIQUE KEY " : "KEY ") + q(indexName(c)) + " (" + q(c.name()) + ")");
                }
            }
            statements.add("CREATE TABLE IF NOT EXISTS " + q(table) + " (" + defs + ") ENGINE=InnoDB DEFAULT CHARSET=utf8mb4");
            return statements;
        }
        statements.add("CREATE TABLE IF NOT EXISTS " + q(table) + " (" + defs + ")");
        for (MirrorColumn c : columns) {
            if (c.indexed()) {
                statements.add("CREATE " + (c.unique() ? "UNIQUE " : "") + "INDEX IF NOT EXISTS " + q(indexName(c))
                        + " ON " + q(table) + " (" + q(c.name()) + ")");
            }
        }
        return statements;
    }

    /** @return the index names this table creates, lowercased (index names are global in SQLite) */
    List<String> indexNames() {
        List<String> names = new ArrayList<>();
        for (MirrorColumn c : columns) {
            if (c.indexed()) {
                names.add(indexName(c).toLowerCase(Locale.ROOT));
            }
        }
        return names;
    }

    String dropStatement() {
        return "DROP TABLE IF EXISTS " + q(table);
    }

    /** @return the INSERT (PostgreSQL: an upsert on {@code id}) with one placeholder per column */
    String insertStatement() {
        return insertStatement(1);
    }

    /**
     * @param rows how many rows the statement inserts, 1 or more
     * @return the INSERT of {@code rows} rows ({@code VALUES (…), (…)}), placeholders row after row
     */
    String insertStatement(int rows) {
        StringJoiner names = new StringJoiner(", ");
        StringJoiner marks = new StringJoiner(", ", "(", ")");
        List<String> all = columnNames();
        for (int i = 0; i < all.size(); i++) {
            names.add(q(all.get(i)));
            marks.add(i == all.size() - 1 ? dialect.dataPlaceholder() : "?");
        }
        String values = String.join(", ", Collections.nCopies(rows, marks.toString()));
        String insert = "INSERT INTO " + q(table) + " (" + names + ") VALUES " + values;
        if (!dialect.upserts()) {
            return insert;
        }
        StringJoiner set = new StringJoiner(", ");
        for (String name : all.subList(1, all.size())) {
            set.add(q(name) + " = EXCLUDED." + q(name));
        }
        return insert + " ON CONFLICT (" + q("id") + ") DO UPDATE SET " + set;
    }

    /**
     * The in-place rewrite of a row whose typed columns already hold the values being written: sets
     * {@code hash} and {@code data} where the id matches and every typed column is null-safe equal
     * ({@code IS}; text compared byte for byte) to its new value, so it changes no row otherwise
     * and never touches an index of a typed column. Only on dialects that
     * {@linkplain Dialect#rewritesInPlace() rewrite in place}.
     *
     * @return the UPDATE; parameters as {@link #inPlaceValues}
     */
    String rewriteStatement() {
        StringBuilder sql = new StringBuilder("UPDATE ").append(q(table)).append(" SET ").append(q("hash")).append(" = ?, ")
                .append(q("data")).append(" = ").append(dialect.dataPlaceholder()).append(" WHERE ").append(q("id")).append(" = ?");
        for (MirrorColumn c : columns) {
            sql.append(" AND ").append(q(c.name())).append(" IS ?");
            if (c.type() == MirrorColumn.Type.STRING) {
                sql.append(" COLLATE BINARY");
            }
        }
        return sql.toString();
    }

    /**
     * @param rowValues the values of {@link #insertStatement()}: id, hash, typed columns, data
     * @return the parameters of {@link #rewriteStatement()}: hash, data, id, typed columns
     */
    static List<Object> inPlaceValues(List<Object> rowValues) {
        int n = rowValues.size();
        List<Object> params = new ArrayList<>(n);
        params.add(rowValues.get(1));
        params.add(rowValues.get(n - 1));
        params.add(rowValues.get(0));
        params.addAll(rowValues.subList(2, n - 1));
        return params;
    }

    String deleteOneStatement() {
        return "DELETE FROM " + q(table) + " WHERE " + q("id") + " = ?";
    }

    String deleteManyStatement(int count) {
        return "DELETE FROM " + q(table) + " WHERE " + q("id") + " IN ("
                + String.join(", ", Collections.nCopies(count, "?")) + ")";
    }

    String selectHashes() {
        return "SELECT " + q("id") + ", " + q("hash") + " FROM " + q(table);
    }

    String selectData() {
        String order = dialect == Dialect.POSTGRESQL ? q("id") + " COLLATE \"C\"" : q("id");
        return "SELECT " + q("id") + ", " + q("data") + " FROM " + q(table) + " ORDER BY " + order;
    }

    String deleteAll() {
        return "DELETE FROM " + q(table);
    }

    List<String> columnNames() {
        List<String> names = new ArrayList<>();
        names.add("id");
        names.add("hash");
        columns.forEach(c -> names.add(c.name()));
        names.add("data");
        return names;
    }

    /**
     * @param record the record
     * @param text its canonical data text
     * @param hash the text's hash
     * @return the bound values for {@link #insertStatement()}
     */
    List<Object> rowValues(StorageRecord record, String text, String hash) {
        List<Object> values = new ArrayList<>(columns.size() + 3);
        values.add(record.id());
        values.add(hash);
        Map<String, Object> data = record.data(); // list-shaped data has keys "0".."n-1": no column matches
        for (MirrorColumn c : columns) {
            values.add(c.bind(data.get(c.name()), dialect));
        }
        values.add(text);
        return values;
    }

    @Override
    public String toString() {
        return collection + " -> " + table;
    }
}
