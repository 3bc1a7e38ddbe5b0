/** JMH microbenchmarks of the queue's hot paths (requeue, bulk enqueue and claim), mirroring {@code dev.storh.queue}. */
package dev.storh.bench.jmh.queue;
