/**
 * JMH benchmarks of storh's Spring Data layer against the raw {@code DocStore} beneath it.
 */
package dev.storh.bench.jmh.spring;
