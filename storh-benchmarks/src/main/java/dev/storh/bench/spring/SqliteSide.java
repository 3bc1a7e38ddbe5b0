package dev.storh.bench.spring;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import dev.storh.id.UuidV7;

/**
 * The SQLite side: one table with a column per property and the same six indexes, through JDBC,
 * {@code journal_mode=WAL} and {@code synchronous=FULL} (each commit fsyncs), every statement
 * prepared once, rows mapped to {@link Product} as a Spring Data JDBC repository would.
 */
final class SqliteSide implements Side {

    private static final String COLUMNS = "id, name, category, price, sku, brand, stock";

    private Connection db;

    private PreparedStatement insert;

    private PreparedStatement select;

    private PreparedStatement delete;

    private PreparedStatement page;

    private PreparedStatement pageCount;

    private PreparedStatement between;

    private PreparedStatement byBrand;

    private PreparedStatement countBrand;

    @Override
    public String name() {
        return "sqlite";
    }

    @Override
    public void open(Path dir) throws SQLException {
        db = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("products.sqlite"));
        try (Statement st = db.createStatement()) {
            st.execute("PRAGMA journal_mode=WAL");
            st.execute("PRAGMA synchronous=FULL");
            st.execute("CREATE TABLE products (id TEXT PRIMARY KEY, name TEXT, category TEXT, price INTEGER, "
                    + "sku TEXT, brand TEXT, stock INTEGER)");
            st.execute("CREATE INDEX products_name ON products (name)");
            st.execute("CREATE INDEX products_category ON products (category)");
            st.execute("CREATE INDEX products_price ON products (price)");
            st.execute("CREATE UNIQUE INDEX products_sku ON products (sku)");
            st.execute("CREATE INDEX products_brand ON products (brand)");
            st.execute("CREATE INDEX products_stock ON products (stock)");
        }
        insert = db.prepareStatement("INSERT INTO products (" + COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?)");
        select = db.prepareStatement("SELECT " + COLUMNS + " FROM products WHERE id = ?");
        delete = db.prepareStatement("DELETE FROM products WHERE id = ?");
        page = db.prepareStatement("SELECT " + COLUMNS + " FROM products WHERE category = ? ORDER BY name LIMIT ? OFFSET ?");
        pageCount = db.prepareStatement("SELECT COUNT(*) FROM products WHERE category = ?");
        between = db.prepareStatement("SELECT " + COLUMNS + " FROM products WHERE price BETWEEN ? AND ?");
        byBrand = db.prepareStatement("SELECT " + COLUMNS + " FROM products WHERE brand = ? LIMIT 100");
        countBrand = db.prepareStatement("SELECT COUNT(*) FROM products WHERE brand = ?");
    }

    @Override
    public void load(List<Product> batch) throws SQLException {
        saveAll(batch);
    }

    @Override
    public void ready() {
        // the indexes are kept by every insert
    }

    @Override
    public void saveAll(List<Product> batch) throws SQLException {
        db.setAutoCommit(false);
        try {
            for (Product product : batch) {
                bind(product);
                insert.addBatch();
            }
            insert.executeBatch();
            db.commit();
        } finally {
            db.setAutoCommit(true);
        }
    }

    @Override
    public String save(Product product) throws SQLException {
        String id = bind(product);
        insert.executeUpdate();
        return id;
    }

    private String bind(Product product) throws SQLException {
        String id = UuidV7.generate();
        insert.setString(1, id);
        insert.setString(2, product.name());
        insert.setString(3, product.category());
        insert.setLong(4, product.price());
        insert.setString(5, product.sku());
        insert.setString(6, product.brand());
        insert.setInt(7, product.stock());
        return id;
    }

    @Override
    public Product get(String id) throws SQLException {
        select.setString(1, id);
        List<Product> found = products(select);
        return found.isEmpty() ? null : found.get(0);
    }

    @Override
    public void deleteById(String id) throws SQLException {
        delete.setString(1, id);
        delete.executeUpdate();
    }

    @Override
    public int pageByCategorySortedByName(String category, int number, int size) throws SQLException {
        page.setString(1, category);
        page.setInt(2, size);
        page.setLong(3, (long) number * size);
        int found = products(page).size();
        pageCount.setString(1, category);
        return count(pageCount) >= 0 ? found : -1;
    }

    @Override
    public int priceBetween(long[] range) throws SQLException {
        between.setLong(1, range[0]);
        between.setLong(2, range[1]);
        return products(between).size();
    }

    @Override
    public int firstHundredByBrand(String brand) throws SQLException {
        byBrand.setString(1, brand);
        return products(byBrand).size();
    }

    @Override
    public long countByBrand(String brand) throws SQLException {
        countBrand.setString(1, brand);
        return count(countBrand);
    }

    private static List<Product> products(PreparedStatement query) throws SQLException {
        List<Product> out = new ArrayList<>();
        try (ResultSet rs = query.executeQuery()) {
            while (rs.next()) {
                out.add(new Product(rs.getString(1), rs.getString(2), rs.getString(3), rs.getLong(4), rs.getString(5),
                        rs.getString(6), rs.getInt(7)));
            }
        }
        return out;
    }

    private static long count(PreparedStatement query) throws SQLException {
        try (ResultSet rs = query.executeQuery()) {
            return rs.next() ? rs.getLong(1) : -1;
        }
    }

    @Override
    public void close() throws SQLException {
        if (db != null) {
            db.close();
        }
    }
}
