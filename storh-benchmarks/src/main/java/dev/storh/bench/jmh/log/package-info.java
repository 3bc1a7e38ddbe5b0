/** JMH microbenchmarks of the segmented log's hot paths (counts, appends, compaction), mirroring {@code dev.storh.log}. */
package dev.storh.bench.jmh.log;
