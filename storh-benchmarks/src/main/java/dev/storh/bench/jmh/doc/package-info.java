/** JMH benchmarks of the document store, mirroring {@code dev.storh.doc}: its query paths and its write path. */
package dev.storh.bench.jmh.doc;
