/** JMH microbenchmarks of storh hot paths. */
package dev.storh.bench.jmh;
