/**
 * The reliability suite: a crash harness that kills a child JVM running a seeded mixed workload on
 * all three engines, fuzzing of every file kind with fixed printed seeds, and hostile input. Short
 * versions run in the normal build; {@code -Dstorh.reliability.long=true} runs the same code for many
 * more rounds and cases, {@code -Dstorh.seed=N} replays one seed.
 */
package dev.storh.reliability;
