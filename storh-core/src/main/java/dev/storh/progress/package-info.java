/**
 * Progress of long whole-store work (verify, repair, reindex, import, export, compact, mirror push):
 * a {@link dev.storh.progress.ProgressListener} receives {@link dev.storh.progress.Progress}
 * snapshots (items done of total, bytes, elapsed time) from a
 * {@link dev.storh.progress.ProgressTracker} that the engine advances.
 */
package dev.storh.progress;
