/** Crash-safe files: atomic writes with fsync, flock(2) collection locks, writer markers and temp sweeps. */
package dev.storh.fs;
