/** Crash-safe files: atomic writes with fsync, flock(2) collection locks, writer markers and temp sweeps ({@code spec/docstore.md} §6–§8). */
package dev.storh.fs;
