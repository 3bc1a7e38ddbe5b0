/** JMH benchmarks of the document store's query paths, mirroring {@code dev.storh.doc}. */
package dev.storh.bench.jmh.doc;
