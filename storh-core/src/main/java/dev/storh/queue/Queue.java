package dev.storh.queue;

import dev.storh.LockTimeoutException;
import dev.storh.StorageException;
import dev.storh.StorageRecord;
import dev.storh.id.UuidV7;
import dev.storh.progress.ProgressListener;
import dev.storh.store.CompactReport;
import dev.storh.store.RepairReport;
import dev.storh.store.Store;
import dev.storh.store.StoreAddress;
import dev.storh.store.StoreKind;
import dev.storh.store.VerifyReport;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A durable job queue on one append-only event log, file-compatible with the original's
 * {@code LogQueue}: producers {@link #enqueue} jobs (a UUIDv7 id and
 * a JSON object payload), workers {@link #claim} them in FIFO order and {@link #complete} them, a
 * janitor {@link #requeueTimedOut requeues} claims that took too long.
 *
 * The queue's files ({@code <root>/<name>/queue.log}, {@code queue.lock}, temp and cut files) are
 * named and described in {@link QueueFiles}; the line format is in {@code QueueEventCodec}.
 *
 * <p><b>State.</b> Each instance keeps the state in memory, rebuilt on open by replaying the log; a
 * bad or torn tail is cut then (complete lines in it are kept aside). A damaged line inside the log
 * is skipped, never cut with what follows it (the original drops every later event): {@link #verify()}
 * reports it and {@link #repair(Duration)} takes it out, keeping the bytes. Before every operation,
 * under the lock, the instance applies what other instances and processes appended since its last
 * read, so every call sees the durable state of all writers.
 *
 * <p><b>Concurrency and durability.</b> One instance is safe to share between threads; any number
 * of instances and processes (the original included) can share a queue. Each operation holds the
 * queue lock (in-process plus {@code flock(2)} on {@code queue.lock}, bounded by
 * {@link QueueOptions#lockTimeout()}) while it syncs, picks jobs, appends its events and fsyncs, and
 * returns only once they are durable: a job is claimed at most once across threads and processes.
 * Concurrent {@code enqueue}, {@code claim} and {@code complete} calls of one instance share one
 * append and one fsync (group commit). A crashed writer's undecodable tail is cut before appending
 * (the original appends after it: W8); a failed write is cut back and the log re-read (W5).
 *
 * <p><b>Compaction (W4).</b> When {@code queue.log} passes {@link QueueOptions#compactionThresholdBytes()}
 * and more than half of its lines are dead, a write (or {@link #compact()}) rewrites it to the live
 * jobs' events by temp file, fsync and rename, so a queue that ran a million jobs reopens as fast as
 * one that ran a hundred; every instance notices the new file before its next read or append. The
 * new file holds only the original's five event types, but a PHP instance open during a compaction
 * misses later events until it is reopened: turn {@link QueueOptions.Builder#autoCompact(boolean)}
 * off while PHP workers share the queue.
 *
 * <p><b>Read-only file systems.</b> On a read-only mount the queue opens for reading (the lock file
 * is opened for reading, which {@code flock} allows; nothing is cut); counts, stats and
 * {@code verify()} work, and every write throws a {@link StorageException} saying the file system is
 * read-only and naming {@code queue.log}. Writes also stop, naming the lock file, when the queue's
 * folder was deleted or moved while it was open.
 *
 * <p><b>Ids</b> are UUIDv7, written lowercase; lookups match exactly, then in lowercase.
 * <b>Errors</b> are {@link StorageException}s naming the id, job index or path; a rejected call
 * writes nothing.
 */
public final class Queue implements Store<QueueStats, QueueRepair, QueueCompact> {

    private final StoreAddress address;
    private final QueueJournal journal;
    private final QueueJobInput input;
    private final QueueCommits commits;
    private final QueueListeners listeners;
    /** Housekeeping; package-private so tests reach its hooks. */
    final QueueMaintenance maintenance;

    private Queue(String name, Path directory, QueueOptions options, QueueJournal journal) {
        this.address = new StoreAddress(StoreKind.QUEUE, name, directory);
        this.journal = journal;
        this.input = new QueueJobInput(options.idGenerator());
        this.commits = new QueueCommits(name, journal, options);
        this.listeners = new QueueListeners(directory);
        this.maintenance = new QueueMaintenance(journal);
    }

    /**
     * {@link #open(Path, String, QueueOptions)} with the default options.
     *
     * @param root the folder holding queues
     * @param name the queue name
     * @return the open queue
     */
    public static Queue open(Path root, String name) {
        return open(root, name, QueueOptions.defaults());
    }

    /**
     * Opens a queue, creating {@code <root>/<name>/} and an empty log when missing, and replays the
     * log under the lock; damaged lines inside it are skipped, an undecodable tail is cut (copied
     * aside first when it held complete lines). On a read-only file system it opens for
     * reading only.
     *
     * @param root the folder holding queues
     * @param name one folder name: not empty, not {@code .} or {@code ..}, without {@code /},
     *     {@code \} or NUL, so the queue stays inside {@code root} (the original does not check: W18)
     * @param options the queue's options
     * @return the open queue; close it to release the lock file handle
     * @throws StorageException naming the queue when the name is unsafe; {@code "Could not open log
     *     queue lock: <path>"} or {@code "Could not open log queue file: <path>"} (e.g. a folder
     *     stands there); {@link LockTimeoutException} when the lock stays held
     */
    public static Queue open(Path root, String name, QueueOptions options) {
        if (root == null) {
            throw new StorageException("Queue root must not be null.");
        }
        Path directory = QueueFiles.folder(root, name);
        QueueOptions opts = options == null ? QueueOptions.defaults() : options;
        return new Queue(name, directory, opts, QueueJournal.open(directory, opts));
    }

    /**
     * @return {@link StoreKind#QUEUE}, the queue name as given to {@link #open(Path, String, QueueOptions)}
     *     and the queue folder {@code <root>/<name>}, absolute and normalised
     */
    @Override
    public StoreAddress address() {
        return address;
    }

    /**
     * @param payload the job's data (see {@link #enqueue(Map, String)}), enqueued with a generated id
     * @return the new job's id
     */
    public String enqueue(Map<String, ?> payload) {
        return enqueue(payload, null);
    }

    /**
     * Enqueues a job; blocks until its event is durable (group commit). Enqueueing an existing id
     * resets that job to pending with the new payload, at the back of the line.
     *
     * @param payload the job's data, a JSON object in the model; top-level keys must not look like
     *     integers (the original drops such keys on read)
     * @param id a UUIDv7 (either case, stored lowercase), or {@code null} to generate one
     * @return the job's id
     * @throws StorageException {@code "Invalid UUIDv7 value."} naming the id, a payload error naming
     *     the field, or an I/O failure; nothing is written then
     */
    public String enqueue(Map<String, ?> payload, String id) {
        QueueOp op = QueueOp.enqueue(List.of(input.one(payload, id, -1)));
        commits.submit(op);
        listeners.fire();
        return op.enqueued.get(0).id();
    }

    /**
     * Enqueues jobs in order with one fsync. Each item is either {@code {"id": ..., "payload":
     * {...}}} (id optional) or, when its {@code payload} is not an object, the payload itself, id
     * key included, as in the original. Unlike the original, every item is checked before anything
     * is written, and the batch is appended in one write: all or nothing (W9).
     *
     * @param jobs the jobs
     * @return the ids, in input order
     * @throws StorageException naming the job index and id when an id or payload is invalid; nothing
     *     is written then
     */
    public List<String> enqueueMany(Iterable<? extends Map<String, ?>> jobs) {
        List<QueueJobInput.Checked> checked = input.many(jobs);
        if (checked.isEmpty()) {
            return List.of();
        }
        QueueOp op = QueueOp.enqueue(checked);
        commits.submit(op);
        listeners.fire();
        return op.enqueued.stream().map(QueueJobInput.Checked::id).toList();
    }

    /**
     * Claims the first pending job: it becomes processing, stamped with the current time, and no
     * other thread, instance or process can claim it until it is requeued. Blocks
     * until the claim is durable (group commit).
     *
     * @return the job (its id and a copy of its payload; {@code {}} when it had none), or empty
     *     when nothing is pending
     * @throws StorageException on I/O failure; nothing is claimed then
     */
    public Optional<StorageRecord> claim() {
        List<StorageRecord> claimed = claimMany(1);
        return claimed.isEmpty() ? Optional.empty() : Optional.of(claimed.get(0));
    }

    /**
     * Claims up to {@code limit} pending jobs in order, with one fsync. Jobs a
     * {@link #retry} delayed are skipped until their retry time.
     *
     * @param limit the most jobs to claim, at least 1
     * @return the claimed jobs in claim order; empty when nothing is pending
     * @throws StorageException {@code "Queue claim limit must be at least 1."} naming the limit, or
     *     on I/O failure
     */
    public List<StorageRecord> claimMany(int limit) {
        return commits.claim(limit, false).claimed;
    }

    /**
     * @param limit the most jobs to claim, at least 1 (see {@link #claimMany(int)})
     * @return the claimed jobs in claim order, with their attempt count and times; empty when
     *     nothing is claimable
     */
    public List<QueueJob> claimJobs(int limit) {
        return commits.claim(limit, true).claimedJobs;
    }

    /**
     * Puts a processing job back to pending, at the back of the line, not to be claimed by storh
     * before {@code delay} has passed; its attempt count is kept. Written as a {@code requeue} event
     * with a {@code "retryAt"} key (Unix milliseconds) that the original ignores: a PHP worker may
     * claim the job at once. One fsync.
     *
     * @param id the job id
     * @param delay how long to wait before the job is claimable again, not negative
     * @return whether the job was processing (and is now pending); {@code false} writes nothing
     * @throws StorageException {@code "Invalid UUIDv7 value."} naming the id, a negative delay, or
     *     an I/O failure
     */
    public boolean retry(String id, Duration delay) {
        boolean requeued = commits.retry(id, delay);
        if (requeued && delay.isZero()) {
            listeners.fire();
        }
        return requeued;
    }

    /**
     * Gives processing jobs back unprocessed (e.g. a consumer shutting down with claimed jobs it
     * did not start): each goes back to pending, at the back of the line, and its last claim no
     * longer counts as an attempt. Written as {@code requeue} events with an {@code "attempts"} key
     * that the original ignores. Ids that are not processing, and repeats, are skipped. One fsync.
     *
     * @param ids job ids
     * @return how many jobs were released
     * @throws StorageException {@code "Invalid UUIDv7 value."} naming the id, or on I/O failure;
     *     nothing is written then
     */
    public int release(Iterable<String> ids) {
        List<String> list = QueueJobInput.ids(ids);
        if (list.isEmpty()) {
            return 0;
        }
        int released = commits.requeueProcessing(list, true, 0);
        if (released > 0) {
            listeners.fire();
        }
        return released;
    }

    /**
     * Adds a callback run after every enqueue, {@code enqueueMany}, {@link #release} and undelayed
     * {@link #retry} of <em>this instance</em> has made its events durable, on the caller's thread
     * (so keep it short: e.g. wake a waiting consumer). Jobs other instances or processes enqueue
     * are not signalled; poll for them. A callback that throws is logged and skipped.
     *
     * @param listener the callback
     */
    public void addEnqueueListener(Runnable listener) {
        listeners.add(listener);
    }

    /** @param listener a callback added with {@link #addEnqueueListener}; unknown ones are ignored */
    public void removeEnqueueListener(Runnable listener) {
        listeners.remove(listener);
    }

    /** @param id a processing job, completed and kept as done (see {@link #complete(String, boolean)}) */
    public void complete(String id) {
        complete(id, true);
    }

    /**
     * Completes a processing job: its payload is dropped and it becomes done, or is forgotten when
     * {@code keepDone} is false. Blocks until durable (group commit).
     *
     * <p>Completing a job that is not processing writes nothing, as in the original, but throws
     * here (so a worker whose claim timed out and was requeued finds out).
     *
     * @param id the job id (a UUIDv7)
     * @param keepDone whether to keep the job as done
     * @throws StorageException {@code "Invalid UUIDv7 value."}; {@code "Cannot complete job <id>: ..."}
     *     when the job is unknown, pending or already done; or on I/O failure
     */
    public void complete(String id, boolean keepDone) {
        UuidV7.assertValid(id);
        commits.submit(QueueOp.complete(List.of(id), keepDone, true));
    }

    /**
     * @param ids processing jobs, completed and kept as done (see {@link #completeMany(Iterable, boolean)})
     * @return how many were completed
     */
    public int completeMany(Iterable<String> ids) {
        return completeMany(ids, true);
    }

    /**
     * Completes processing jobs with one fsync. Ids that are not processing, and repeats,
     * are skipped, as in the original. Every id is validated before anything is written; an empty
     * input returns 0 without taking the lock.
     *
     * @param ids job ids
     * @param keepDone whether to keep the jobs as done
     * @return how many jobs were completed
     * @throws StorageException {@code "Invalid UUIDv7 value."} naming the id, or on I/O failure
     */
    public int completeMany(Iterable<String> ids, boolean keepDone) {
        List<String> list = QueueJobInput.ids(ids);
        if (list.isEmpty()) {
            return 0;
        }
        QueueOp op = QueueOp.complete(list, keepDone, false);
        commits.submit(op);
        return op.completed;
    }

    /**
     * Requeues every processing job claimed at least {@code timeout} ago, to the back of the line,
     * with one fsync. Claims are stamped in whole seconds, so the timeout is rounded up to
     * whole seconds; zero requeues every processing job.
     *
     * @param timeout the least claim age, not negative
     * @return how many jobs were requeued
     * @throws StorageException when the timeout is negative, or on I/O failure
     */
    public int requeueTimedOut(Duration timeout) {
        return maintenance.requeueTimedOut(timeout);
    }

    /** @return how many done jobs were forgotten: all of them (see {@link #purgeDone(Duration)}) */
    public int purgeDone() {
        return purgeDone(Duration.ZERO);
    }

    /**
     * Forgets done jobs completed at least {@code olderThan} ago (whole seconds, rounded up; zero
     * selects all), writing one purge event each with one fsync.
     *
     * @param olderThan the least age since completion, not negative
     * @return how many were purged
     * @throws StorageException when the age is negative, or on I/O failure
     */
    public int purgeDone(Duration olderThan) {
        return maintenance.purgeDone(olderThan);
    }

    /**
     * @return pending, processing and done counts, after reading other writers' events
     * @throws StorageException on I/O failure or lock timeout
     */
    public QueueCounts counts() {
        return maintenance.counts();
    }

    /**
     * The job counts as this instance last saw them, for metrics that are read often: unlike
     * {@link #counts()}, no lock is taken and the disk is not read, so events other instances or
     * processes appended since this instance's last operation are not counted yet.
     *
     * @return pending, processing and done jobs at the end of this instance's last operation
     */
    public QueueCounts lastCounts() {
        return journal.lastCounts();
    }

    /**
     * @return the counts plus the size of {@code queue.log} in bytes
     * @throws StorageException on I/O failure or lock timeout
     */
    @Override
    public QueueStats stats() {
        return maintenance.stats();
    }

    /**
     * Checks the log and the in-memory state: replays {@code queue.log} from the start into
     * a scratch state and reports every damaged line, as {@code "line <n> (byte <offset> of <path>):
     * <problem>"} (damage inside the log, which reads skip and {@link #repair()} removes, and a bad
     * tail, which the next write cuts); then compares the scratch state with this instance's
     * (payloads, statuses with their times, pending order), reporting {@code "Log queue state drift."}.
     * Changes nothing on disk.
     *
     * @param listener receives the progress of operation {@code "verify"} (a snapshot with the log's
     *     bytes, a last one with the events replayed); an exception it throws stops the verify
     * @return ok, errors, stats
     * @throws StorageException on lock timeout
     */
    @Override
    public VerifyReport<QueueStats> verify(ProgressListener listener) {
        return maintenance.verify(listener);
    }

    /**
     * {@link #repair(Duration, ProgressListener)} with the default processing timeout of one hour.
     *
     * @param listener receives the progress
     * @return ok, requeued, and what was removed
     */
    @Override
    public RepairReport<QueueRepair> repair(ProgressListener listener) {
        return repair(Duration.ofHours(1), listener);
    }

    /**
     * Rebuilds the state by replaying the log from the start and leaves a clean log: a bad tail is
     * cut, damaged lines inside the log are copied aside ({@code queue.log.cut-<offset>-<ms>}) and the
     * log is rewritten without them, every intact event kept in order; compaction temp files
     * left by a crash are deleted. Then requeues processing jobs claimed at least
     * {@code processingTimeout} ago. Fixes state drift.
     *
     * @param processingTimeout the least claim age to requeue (whole seconds, rounded up), not negative
     * @return ok, requeued, bytes cut from the tail, and what was removed
     * @throws StorageException when the timeout is negative, on I/O failure, or when the file system is read-only
     */
    public RepairReport<QueueRepair> repair(Duration processingTimeout) {
        return repair(processingTimeout, ProgressListener.NONE);
    }

    /**
     * @param processingTimeout the least claim age to requeue, not negative
     * @param listener receives the progress of operation {@code "repair"} (a snapshot with the log's
     *     bytes, a last one with the events replayed)
     * @return {@link #repair(Duration)}'s report
     */
    public RepairReport<QueueRepair> repair(Duration processingTimeout, ProgressListener listener) {
        return maintenance.repair(processingTimeout, listener);
    }

    /**
     * Rewrites {@code queue.log} to the live jobs' events now, whatever its size (see the class
     * comment). Writes automatically do this when the log passes the threshold.
     *
     * @param listener receives the progress of operation {@code "compact"} (a snapshot with the log's
     *     bytes, a last one with the events kept and the bytes written)
     * @return sizes before and after, and the events kept
     * @throws StorageException on I/O failure; the old log then stays in place
     */
    @Override
    public CompactReport<QueueCompact> compact(ProgressListener listener) {
        return maintenance.compact(listener);
    }

    /**
     * Closes the log file and releases this instance's hold on the lock file. Later calls throw.
     */
    @Override
    public void close() {
        journal.close();
    }

    @Override
    public String toString() {
        return "Queue[" + address.directory() + "]";
    }
}
