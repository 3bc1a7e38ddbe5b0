/**
 * The SQL mirror in a Spring application: collections copied into tables of the application's
 * {@code DataSource}, pushed on a schedule and after repository writes.
 */
package dev.storh.spring.boot.mirror;
