/**
 * Queue: a durable job queue on one append-only, checksummed event log. {@link dev.storh.queue.Queue}
 * is the API; behind it, by job: {@code QueueJournal} (the state replayed from the log and kept up to
 * date under the queue lock), {@code QueueState} (the state machine), {@code QueueCommits} (group
 * commit of enqueues, claims and completes; retries and releases), {@code QueueJobInput} (checks of
 * what producers hand in), {@code QueueListeners}, {@code QueueMaintenance} (stats, verify, repair,
 * compaction, purge), {@code QueueLogFile} and {@code QueueLogScanner} (the log's bytes, reached only
 * through the {@link dev.storh.fs.StoreFiles} seam) and {@link dev.storh.queue.QueueFiles} (every
 * file name of a queue folder).
 */
package dev.storh.queue;
