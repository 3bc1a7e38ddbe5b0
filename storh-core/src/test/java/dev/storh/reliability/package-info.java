/**
 * The reliability suite: a crash harness that kills a child JVM running a seeded mixed workload on
 * all three engines, a power-cut simulator behind the byte seam, the durability order read from
 * strace, a fault matrix (engine x write path x commit point), races between JVMs and threads,
 * fuzzing of every file kind with fixed printed seeds, and hostile input, paths and file states.
 * Short versions run in the normal build; {@code -Dstorh.reliability.long=true} runs the same code
 * for many more rounds and cases, {@code -Dstorh.seed=N} replays one seed. Defects found and not
 * fixed yet stay as disabled tests naming the defect ({@code grep -r "known defect"}).
 */
package dev.storh.reliability;
