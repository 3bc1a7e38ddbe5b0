/**
 * The whole-run benchmark harness ({@link dev.storh.bench.harness.Harness}): the original's
 * workloads and metric names, SQLite and a raw fsync probe side by side, repeats with medians,
 * compare and a regression gate.
 */
package dev.storh.bench.harness;
