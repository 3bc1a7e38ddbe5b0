/**
 * The SQL mirror: copies collections of file stores into SQL tables (SQLite, MySQL/MariaDB,
 * PostgreSQL) for joins and reports, while the files stay the source of truth. See
 * {@code docs/mirror.md}.
 */
package dev.storh.mirror;
