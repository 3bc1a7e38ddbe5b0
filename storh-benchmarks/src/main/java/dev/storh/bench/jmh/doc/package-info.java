/** JMH benchmarks of the DocStore write path (mirrors {@code dev.storh.doc} of storh-core). */
package dev.storh.bench.jmh.doc;
