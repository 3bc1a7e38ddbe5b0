/**
 * Throughput of {@code @StorhListener} containers beside raw {@code claimMany}/{@code completeMany}
 * loops ({@link dev.storh.bench.listener.ListenerThroughput}).
 */
package dev.storh.bench.listener;
