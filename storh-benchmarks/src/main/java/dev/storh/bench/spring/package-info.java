/**
 * Whole-run measurements of the Spring Data layer as an application uses it: the repository over
 * a real folder beside SQLite through JDBC, with the same entity, indexes and queries, in one run.
 * Each class has a {@code main} and prints a Markdown table; nothing here is a unit test.
 */
package dev.storh.bench.spring;
