/**
 * Entities and repositories used by the tests, in separate packages so that each test scans only
 * what it needs: {@code cities} and {@code notes} are valid, {@code broken} must fail startup.
 */
package dev.storh.spring.sample;
