package dev.storh.queue;

import dev.storh.LockTimeoutException;
import dev.storh.StorageException;
import dev.storh.StorageRecord;
import dev.storh.fs.AtomicFiles;
import dev.storh.fs.CollectionLock;
import dev.storh.fs.GroupCommit;
import dev.storh.fs.ReadOnlyFileSystem;
import dev.storh.id.UuidV7;
import dev.storh.observe.Observed;
import dev.storh.observe.StoreOperation;
import dev.storh.progress.ProgressListener;
import dev.storh.progress.ProgressTracker;
import dev.storh.store.CompactReport;
import dev.storh.store.RepairReport;
import dev.storh.store.Store;
import dev.storh.store.StoreKind;
import dev.storh.store.StoreNames;
import dev.storh.store.VerifyReport;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A durable job queue on one append-only event log, file-compatible with the original's
 * {@code LogQueue}: producers {@link #enqueue} jobs (a UUIDv7 id and
 * a JSON object payload), workers {@link #claim} them in FIFO order and {@link #complete} them, a
 * janitor {@link #requeueTimedOut requeues} claims that took too long.
 *
 * <pre>
 * &lt;root&gt;/&lt;name&gt;/queue.lock   flock(2) target of the queue lock
 * &lt;root&gt;/&lt;name&gt;/queue.log    framed event lines, format in {@link QueueEventCodec}, files in {@link QueueLogFile}
 * </pre>
 *
 * <p><b>State.</b> Each instance keeps the state in memory ({@link QueueState}), rebuilt on open by
 * replaying the log; a bad or torn tail is cut then (complete lines in it are kept in
 * {@code queue.log.cut-*}). A damaged line inside the log (followed by good events) is skipped, never
 * cut with what follows it (the original drops every later event): {@link #verify()} reports it
 * with its line, byte offset and path, and {@link #repair(Duration)} takes it out, keeping the
 * bytes. Before every operation, under the lock, the instance applies the events other instances
 * and processes appended since its last read, so every call sees the durable state of all writers.
 *
 * <p><b>Concurrency and durability.</b> One instance is safe to share between threads; any number
 * of instances and processes (the original included) can share a queue. Each operation holds the
 * queue lock (an in-process lock plus {@code flock(2)} on {@code queue.lock}, bounded by
 * {@link QueueOptions#lockTimeout()}) while it syncs, picks jobs, appends its events and fsyncs;
 * it returns only after its events are durable. So a job is claimed at most once across threads and
 * processes. Concurrent {@code enqueue}, {@code claim} and {@code complete} calls of one instance
 * are group-committed: one caller writes the waiting calls' events in one append with one fsync
 * while the others block. Before appending, an instance cuts an undecodable tail a crashed writer
 * left (the original appends after it, losing acknowledged events: W8). A failed write rolls the
 * file back and forces a full re-read, so memory is never ahead of disk after an error (W5).
 *
 * <p><b>Compaction (W4).</b> When {@code queue.log} is larger than
 * {@link QueueOptions#compactionThresholdBytes()} and more than half of its lines are dead, a write
 * (or {@link #compact()}) rewrites it to the live jobs' events only ({@link QueueCompaction}), so a
 * queue that ran a million jobs reopens as fast as one that ran a hundred. Protocol, all under the
 * queue lock:
 * <ol>
 *   <li>the compacting instance writes the live events to {@code .queue.log.<12 hex>.tmp}, fsyncs
 *       it, renames it over {@code queue.log} and fsyncs the folder (a crash leaves the old or the
 *       new log; leftover temp files are deleted on open);</li>
 *   <li>every instance, before each read or append, compares the identity (device and inode) of
 *       the file it has open with the one {@code queue.log} names; if they differ, or the file got
 *       shorter than what it applied, it re-reads the new file from the start. Holding the old file
 *       open keeps its inode from being reused, so the check cannot be fooled;</li>
 *   <li>appends always go to the file just checked, so no instance writes into a renamed-away log.</li>
 * </ol>
 * The new file holds only the original's five event types, so the original can replay it, but a
 * PHP instance that is open during a compaction keeps reading the old file's offsets and misses
 * later events until it is reopened: turn {@link QueueOptions.Builder#autoCompact(boolean)} off
 * while PHP workers share the queue.
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
public final class Queue implements Store {

    private static final Logger LOG = LoggerFactory.getLogger(Queue.class);
    private static final long DEFAULT_REPAIR_TIMEOUT_SECONDS = 3600;

    private final String name;
    private final Path directory;
    private final QueueOptions options;
    private final QueueLogFile log;
    private final CollectionLock lock;
    private final GroupCommit<QueueOp> commits;
    private final Object lifecycle = new Object();
    private final List<Runnable> enqueueListeners = new CopyOnWriteArrayList<>();
    private volatile boolean closed;

    private final boolean readOnly;

    /** The counts at the end of the last locked operation, for {@link #lastCounts()}. */
    private volatile QueueCounts lastCounts = new QueueCounts(0, 0, 0);

    // Guarded by the queue lock.
    private QueueState state;
    private long offset;
    private long lines;
    /** The 1-based number of the line that starts at {@link #offset}. */
    private long lineNo = 1;
    /** Damaged stretches of the open file that were skipped (kept in the log until a repair). */
    private final List<QueueLogFile.Damage> damaged = new ArrayList<>();

    private Queue(String name, Path directory, QueueOptions options, CollectionLock lock, boolean readOnly) {
        this.name = name;
        this.directory = directory;
        this.options = options;
        this.readOnly = readOnly;
        this.log = new QueueLogFile(options.files(directory), directory.resolve(QueueLogFile.LOG_NAME), readOnly);
        this.lock = lock;
        this.commits = new GroupCommit<>(this::writeBatch, options.maxBatch());
    }

    /**
     * @param root the folder holding queues
     * @param name the queue name
     * @return the open queue with default options
     * @see #open(Path, String, QueueOptions)
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
        Path directory = StoreNames.folder(root, StoreKind.QUEUE.label(), name);
        boolean readOnly = Files.isDirectory(directory) && ReadOnlyFileSystem.isReadOnly(directory);
        if (!readOnly) {
            AtomicFiles.ensureDirectory(directory);
        }
        Path lockFile = directory.resolve(QueueLogFile.LOCK_NAME);
        CollectionLock lock;
        try {
            lock = CollectionLock.open(lockFile);
        } catch (StorageException e) {
            throw new StorageException("Could not open log queue lock: " + lockFile
                    + (readOnly ? " (" + ReadOnlyFileSystem.READ_ONLY + ")" : ""), e);
        }
        Queue queue = new Queue(name, directory, options == null ? QueueOptions.defaults() : options, lock, readOnly);
        try {
            queue.locked(() -> {
                if (!readOnly) {
                    QueueLogFile.deleteLeftovers(directory);
                }
                queue.reload(!readOnly);
                return null;
            });
        } catch (RuntimeException e) {
            queue.log.close();
            lock.close();
            throw e;
        }
        return queue;
    }

    /**
     * @return the queue folder {@code <root>/<name>}, absolute and normalised
     */
    @Override
    public Path directory() {
        return directory;
    }

    /**
     * @return {@link StoreKind#QUEUE}
     */
    @Override
    public StoreKind kind() {
        return StoreKind.QUEUE;
    }

    /**
     * @return the queue name, as given to {@link #open(Path, String, QueueOptions)}
     */
    @Override
    public String name() {
        return name;
    }

    // ---------------------------------------------------------------- producing

    /**
     * Enqueues a job with a generated id.
     *
     * @param payload the job's data, a JSON object in the model; top-level keys must not look like
     *     integers (the original drops such keys on read)
     * @return the new job's id
     * @throws StorageException when the payload cannot be stored (naming the field), or on I/O failure
     */
    public String enqueue(Map<String, ?> payload) {
        return enqueue(payload, null);
    }

    /**
     * Enqueues a job; blocks until its event is durable (group commit). Enqueueing an existing id
     * resets that job to pending with the new payload, at the back of the line.
     *
     * @param payload the job's data, a JSON object; see {@link #enqueue(Map)}
     * @param id a UUIDv7 (either case, stored lowercase), or {@code null} to generate one
     * @return the job's id
     * @throws StorageException {@code "Invalid UUIDv7 value."} naming the id, a payload error naming
     *     the field, or an I/O failure; nothing is written then
     */
    public String enqueue(Map<String, ?> payload, String id) {
        QueueOp op = QueueOp.enqueue(List.of(prepare(payload, id, -1)));
        submit(op);
        fireEnqueued();
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
        List<QueueEvent> events = new ArrayList<>();
        int index = 0;
        for (Map<String, ?> job : jobs) {
            if (job == null) {
                throw new StorageException("Invalid job " + index + " in enqueueMany: null");
            }
            Object payload = job.get("payload");
            if (payload instanceof Map<?, ?> map) {
                Object id = job.get("id");
                if (id != null && !(id instanceof String)) {
                    throw new StorageException("Invalid job " + index + " in enqueueMany: id must be a string, got "
                            + id.getClass().getSimpleName());
                }
                @SuppressWarnings("unchecked")
                Map<String, ?> typed = (Map<String, ?>) map;
                events.add(prepare(typed, (String) id, index));
            } else {
                events.add(prepare(job, null, index));
            }
            index++;
        }
        if (events.isEmpty()) {
            return List.of();
        }
        QueueOp op = QueueOp.enqueue(events);
        submit(op);
        fireEnqueued();
        List<String> ids = new ArrayList<>(events.size());
        events.forEach(e -> ids.add(e.id()));
        return ids;
    }

    private QueueEvent prepare(Map<String, ?> payload, String id, int index) {
        String where = index < 0 ? "" : " (job " + index + " in enqueueMany)";
        String jobId;
        if (id != null) {
            try {
                jobId = UuidV7.normalize(id);
            } catch (StorageException e) {
                throw new StorageException(e.getMessage() + where, e);
            }
        } else if (options.idGenerator() != null) {
            String generated = options.idGenerator().get();
            try {
                jobId = UuidV7.normalize(generated);
            } catch (StorageException e) {
                throw new StorageException(e.getMessage() + " (from the custom id generator)" + where, e);
            }
        } else {
            jobId = UuidV7.generate();
        }
        if (payload == null) {
            throw new StorageException("Job payload must not be null: job " + jobId + where);
        }
        for (Object key : payload.keySet()) {
            if (!(key instanceof String text)) {
                throw new StorageException("Job payload key must be a string: job " + jobId + where + ", key " + key);
            }
            if (QueueEventCodec.isIntegerLike(text)) {
                throw new StorageException("Job payload key \"" + text + "\" looks like an integer: job " + jobId + where
                        + "; the original drops such top-level keys when it reads the job");
            }
        }
        byte[] json;
        try {
            json = QueueEventCodec.encodePayload(payload);
        } catch (StorageException e) {
            throw new StorageException("Job payload cannot be stored: job " + jobId + where + ": " + e.getMessage(), e);
        }
        // The state holds what a replay would read (Long, Double, ...), never the caller's objects.
        return QueueEvent.enqueue(jobId, QueueEventCodec.reread(json), 0);
    }

    // ---------------------------------------------------------------- consuming

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
        if (limit < 1) {
            throw new StorageException("Queue claim limit must be at least 1. Got: " + limit);
        }
        QueueOp op = QueueOp.claim(limit);
        Observed.run(options.observer(), StoreKind.QUEUE, name, StoreOperation.CLAIM, () -> submit(op));
        return op.claimed;
    }

    /**
     * Claims up to {@code limit} pending jobs in order, like {@link #claimMany(int)}, and returns
     * them with their attempt count and times. Jobs a {@link #retry} delayed are skipped until
     * their retry time.
     *
     * @param limit the most jobs to claim, at least 1
     * @return the claimed jobs in claim order; empty when nothing is claimable
     * @throws StorageException see {@link #claimMany(int)}
     */
    public List<QueueJob> claimJobs(int limit) {
        if (limit < 1) {
            throw new StorageException("Queue claim limit must be at least 1. Got: " + limit);
        }
        QueueOp op = QueueOp.claim(limit);
        Observed.run(options.observer(), StoreKind.QUEUE, name, StoreOperation.CLAIM, () -> submit(op));
        return op.claimedJobs;
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
        UuidV7.assertValid(id);
        if (delay == null || delay.isNegative()) {
            throw new StorageException("Queue retry delay must not be negative or null, got " + delay + " for job " + id);
        }
        boolean requeued = requeueProcessing(List.of(id), false, delay.toMillis()) == 1;
        if (requeued && delay.isZero()) {
            fireEnqueued();
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
        List<String> list = new ArrayList<>();
        for (String id : ids) {
            list.add(UuidV7.assertValid(id));
        }
        if (list.isEmpty()) {
            return 0;
        }
        int released = requeueProcessing(list, true, 0);
        if (released > 0) {
            fireEnqueued();
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
        enqueueListeners.add(java.util.Objects.requireNonNull(listener, "listener"));
    }

    /**
     * @param listener a callback added with {@link #addEnqueueListener}; unknown ones are ignored
     */
    public void removeEnqueueListener(Runnable listener) {
        enqueueListeners.remove(listener);
    }

    /**
     * Completes a processing job and keeps it as done (until {@link #purgeDone}).
     *
     * @param id the job id
     * @throws StorageException see {@link #complete(String, boolean)}
     */
    public void complete(String id) {
        complete(id, true);
    }

    /**
     * Completes a processing job: its payload is dropped and it becomes done, or is forgotten when
     * {@code keepDone} is false. Blocks until durable (group commit).
     *
     * <p>The original silently ignores completing a job that is not processing; here nothing is
     * written either, but the caller learns it: such a call throws (a worker whose claim timed out
     * and was requeued finds out here).
     *
     * @param id the job id (a UUIDv7)
     * @param keepDone whether to keep the job as done
     * @throws StorageException {@code "Invalid UUIDv7 value."}; {@code "Cannot complete job <id>: ..."}
     *     when the job is unknown, pending or already done; or on I/O failure
     */
    public void complete(String id, boolean keepDone) {
        UuidV7.assertValid(id);
        QueueOp op = QueueOp.complete(List.of(id), keepDone, true);
        submit(op);
    }

    /**
     * Completes processing jobs as done, with one fsync.
     *
     * @param ids job ids
     * @return how many were completed
     * @throws StorageException see {@link #completeMany(Iterable, boolean)}
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
        List<String> list = new ArrayList<>();
        for (String id : ids) {
            list.add(UuidV7.assertValid(id));
        }
        if (list.isEmpty()) {
            return 0;
        }
        QueueOp op = QueueOp.complete(list, keepDone, false);
        submit(op);
        return op.completed;
    }

    // ---------------------------------------------------------------- housekeeping

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
        long seconds = wholeSeconds(timeout, "timeout");
        return locked(() -> {
            sync(true);
            return requeueLocked(seconds);
        });
    }

    /**
     * Forgets every done job.
     *
     * @return how many were purged
     * @throws StorageException on I/O failure
     */
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
        long seconds = wholeSeconds(olderThan, "olderThan");
        return locked(() -> {
            sync(true);
            long now = nowSeconds();
            List<String> ids = state.idsWithStatus(QueueState.Status.DONE, now, seconds);
            QueueOp.Batch batch = new QueueOp.Batch();
            ids.forEach(id -> batch.apply(state, QueueEvent.purge(id, now)));
            commitLocked(batch);
            return ids.size();
        });
    }

    /**
     * @return pending, processing and done counts, after reading other writers' events
     * @throws StorageException on I/O failure or lock timeout
     */
    public QueueCounts counts() {
        return locked(() -> {
            sync(false);
            return state.counts();
        });
    }

    /**
     * The job counts as this instance last saw them, for metrics that are read often: unlike
     * {@link #counts()}, no lock is taken and the disk is not read, so events other instances or
     * processes appended since this instance's last operation are not counted yet.
     *
     * @return pending, processing and done jobs at the end of this instance's last operation
     */
    public QueueCounts lastCounts() {
        return lastCounts;
    }

    /**
     * @return the counts plus the size of {@code queue.log} in bytes
     * @throws StorageException on I/O failure or lock timeout
     */
    @Override
    public QueueStats stats() {
        return locked(() -> {
            sync(false);
            return statsLocked();
        });
    }

    /**
     * Checks the log and the in-memory state: replays {@code queue.log} from the start into
     * a scratch state and reports every damaged line, as {@code "line <n> (byte <offset> of <path>):
     * <problem>"} (damage inside the log, which reads skip and {@link #repair()} removes, and a bad
     * tail, which the next write cuts); then compares the scratch state with this instance's
     * (payloads, statuses with their times, pending order), reporting {@code "Log queue state drift."}.
     * Changes nothing on disk.
     *
     * @return ok, errors, stats
     * @throws StorageException on lock timeout
     */
    @Override
    public VerifyReport<QueueStats> verify() {
        return verify(ProgressListener.NONE);
    }

    /**
     * {@link #verify()}, reporting progress as operation {@code "verify"}: a first snapshot with the
     * log's bytes, and a last one with the events replayed and the bytes read (a queue's log is
     * kept short by compaction, so one pass is quick).
     *
     * @param listener receives the progress; an exception it throws stops the verify
     * @return ok, errors, stats
     * @throws StorageException on lock timeout
     */
    @Override
    public VerifyReport<QueueStats> verify(ProgressListener listener) {
        return locked(() -> {
            List<String> errors = new ArrayList<>();
            QueueState scratch = new QueueState();
            ProgressTracker progress = ProgressTracker.start("verify", -1, offset, listener);
            long[] events = {0};
            long read = 0;
            boolean readable = true;
            try (FileChannel ch = FileChannel.open(log.path(), StandardOpenOption.READ)) {
                QueueLogFile.Scan scan = QueueLogFile.scan(ch, 0, 1, nowSeconds(), event -> {
                    scratch.apply(event);
                    events[0]++;
                });
                read = scan.end();
                for (QueueLogFile.Damage d : scan.damaged()) {
                    errors.add(where(d.line(), d.offset()) + d.problem() + " (" + d.length()
                            + " damaged bytes skipped; the events after them are kept; repair() removes them)");
                }
                if (scan.error() != null) {
                    errors.add(where(scan.endLine(), scan.end()) + scan.error());
                }
            } catch (IOException | RuntimeException e) {
                readable = false;
                errors.add("Could not read log queue file. " + log.path() + ": " + e);
            }
            progress.advance(events[0], read);
            progress.finish();
            try {
                sync(false);
                if (readable && !state.sameAs(scratch)) {
                    errors.add("Log queue state drift.");
                }
            } catch (RuntimeException e) {
                errors.add("Could not read log queue file. " + log.path() + ": " + e);
                return new VerifyReport<>(false, errors, new QueueStats(0, 0, 0, 0));
            }
            return new VerifyReport<>(errors.isEmpty(), errors, statsLocked());
        });
    }

    private String where(long line, long byteOffset) {
        return "line " + line + " (byte " + byteOffset + " of " + log.path() + "): ";
    }

    /**
     * The same checks as {@link #verify()}, for health endpoints.
     *
     * @return ok, errors, stats
     * @throws StorageException on lock timeout
     */
    @Override
    public VerifyReport<QueueStats> health() {
        return verify();
    }

    /**
     * Repairs with the default processing timeout of one hour.
     *
     * @return ok and the number of requeued jobs
     * @throws StorageException see {@link #repair(Duration)}
     */
    @Override
    public RepairReport<QueueRepairDetails> repair() {
        return repair(ProgressListener.NONE);
    }

    /**
     * Repairs with the default processing timeout of one hour, reporting progress.
     *
     * @param listener receives the progress
     * @return ok, requeued, bytes cut from the tail, and what was removed
     * @throws StorageException see {@link #repair(Duration)}
     */
    @Override
    public RepairReport<QueueRepairDetails> repair(ProgressListener listener) {
        return repair(Duration.ofSeconds(DEFAULT_REPAIR_TIMEOUT_SECONDS), listener);
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
    public RepairReport<QueueRepairDetails> repair(Duration processingTimeout) {
        return repair(processingTimeout, ProgressListener.NONE);
    }

    /**
     * {@link #repair(Duration)}, reporting progress as operation {@code "repair"}: a first snapshot
     * with the log's bytes, a last one with the events replayed.
     *
     * @param processingTimeout the least claim age to requeue, not negative
     * @param listener receives the progress
     * @return ok, requeued, bytes cut from the tail, and what was removed
     * @throws StorageException when the timeout is negative, on I/O failure, or when the file system is read-only
     */
    public RepairReport<QueueRepairDetails> repair(Duration processingTimeout, ProgressListener listener) {
        long seconds = wholeSeconds(processingTimeout, "processingTimeout");
        return locked(() -> {
            checkWritable();
            ProgressTracker progress = ProgressTracker.start("repair", -1, offset, listener);
            try {
                QueueLogFile.deleteLeftovers(directory);
                List<String> removed = new ArrayList<>();
                QueueLogFile.Cut cut = reload(true);
                if (cut.bytes() > 0) {
                    removed.add(log.path() + ":" + offset + ": " + cut.bytes() + " bytes at the end"
                            + (cut.keptIn() == null ? " (a torn line)" : ", kept in " + cut.keptIn().getFileName()));
                }
                if (!damaged.isEmpty()) {
                    removed.addAll(log.keepAside(damaged));
                    long end = offset;
                    state = null;
                    log.rewriteWithout(List.copyOf(damaged), end);
                    reload(false);
                    LOG.warn("Removed {} damaged stretch(es) from {}: {}", removed.size(), log.path(), removed);
                }
                int requeued = requeueLocked(seconds);
                progress.advance(lines, offset);
                return new RepairReport<>(true, removed, new QueueRepairDetails(requeued, cut.bytes()));
            } finally {
                progress.finish();
            }
        });
    }

    /**
     * Rewrites {@code queue.log} to the live jobs' events now, whatever its size (see the class
     * comment for the protocol). Writes automatically do this when the log passes the threshold.
     *
     * @return sizes before and after, and the events kept
     * @throws StorageException on I/O failure; the old log then stays in place
     */
    @Override
    public CompactReport<QueueCompactDetails> compact() {
        return compact(ProgressListener.NONE);
    }

    /**
     * {@link #compact()}, reporting progress as operation {@code "compact"}: a first snapshot with
     * the log's bytes, a last one with the events kept and the bytes written.
     *
     * @param listener receives the progress
     * @return sizes before and after, and the events kept
     * @throws StorageException on I/O failure; the old log then stays in place
     */
    @Override
    public CompactReport<QueueCompactDetails> compact(ProgressListener listener) {
        return locked(() -> {
            sync(true);
            long before = offset;
            ProgressTracker progress = ProgressTracker.start("compact", -1, before, listener);
            try {
                compactLocked();
                progress.advance(lines, offset);
                return new CompactReport<>(true, before, offset, new QueueCompactDetails(before, offset, lines));
            } finally {
                progress.finish();
            }
        });
    }

    /**
     * Closes the log file and releases this instance's hold on the lock file. Later calls throw.
     */
    @Override
    public void close() {
        synchronized (lifecycle) {
            if (closed) {
                return;
            }
            try {
                lock.lock(options.lockTimeout());
                try {
                    closed = true;
                    log.close();
                } finally {
                    lock.unlock();
                }
            } catch (RuntimeException e) {
                closed = true;
                log.close();
            } finally {
                lock.close();
            }
        }
    }

    @Override
    public String toString() {
        return "Queue[" + directory + "]";
    }

    // ---------------------------------------------------------------- internals

    /** Test hook for the drift check of verify: damages the in-memory state. */
    void dropPendingForTesting() {
        locked(() -> {
            sync(false);
            state.dropPendingForTesting();
            return null;
        });
    }

    /** Before any write, under the lock: refuse on a read-only file system or when the folder was replaced. */
    private void checkWritable() {
        if (readOnly) {
            throw ReadOnlyFileSystem.refused("write to log queue", log.path());
        }
        lock.checkLockFile();
    }

    /** Test hook: every known job's status ("pending", "processing", "done"), pending jobs first, in claim order. */
    Map<String, String> statusesForTesting() {
        return locked(() -> {
            sync(false);
            Map<String, String> statuses = new java.util.LinkedHashMap<>();
            state.pendingJobs().forEach(j -> statuses.put(j.id, "pending"));
            state.settledJobs().forEach(j -> statuses.put(j.id, j.status == QueueState.Status.DONE ? "done" : "processing"));
            return statuses;
        });
    }

    private <T> T locked(Supplier<T> body) {
        if (closed) {
            throw new StorageException("Queue is closed: " + directory);
        }
        try {
            lock.lock(options.lockTimeout());
        } catch (LockTimeoutException e) {
            throw e;
        } catch (StorageException e) {
            throw new StorageException("Could not lock log queue: " + lock.path(), e);
        }
        try {
            if (closed) {
                throw new StorageException("Queue is closed: " + directory);
            }
            return body.get();
        } finally {
            QueueState current = state;
            if (current != null) {
                lastCounts = current.counts();
            }
            lock.unlock();
        }
    }

    private void submit(QueueOp op) {
        commits.submit(op);
        if (op.error != null) {
            throw op.error;
        }
    }

    /** The group commit writer: one lock, one sync, one append and one fsync for every waiting call. */
    private void writeBatch(List<QueueOp> ops) {
        locked(() -> {
            sync(true);
            long nowMs = options.clock().millis();
            long now = Math.floorDiv(nowMs, 1000L);
            QueueOp.Batch batch = new QueueOp.Batch();
            try {
                for (QueueOp op : ops) {
                    op.run(state, batch, now, nowMs);
                }
            } catch (RuntimeException | Error e) {
                state = null; // events applied but never written: re-read the log next time
                throw e;
            }
            commitLocked(batch);
            return null;
        });
    }

    /**
     * Brings the state up to date with the log. A different file behind the name (a
     * compaction), or a shorter one, means a full re-read; otherwise the new lines are applied.
     * Damaged lines followed by good ones are skipped; reading stops before a bad tail, which a
     * writer ({@code forWrite}) then cuts, since under the lock it can only be a crashed writer's
     * leftover (W8), as the next open would. A writer first checks it may write at all.
     */
    private void sync(boolean forWrite) {
        if (forWrite) {
            checkWritable();
        }
        if (state == null || !log.isCurrent()) {
            reload(forWrite);
            return;
        }
        long size = log.size();
        if (size < offset) {
            reload(forWrite);
            return;
        }
        if (size == offset) {
            return;
        }
        QueueLogFile.Scan scan;
        try {
            scan = QueueLogFile.scan(log.channel(), offset, lineNo, nowSeconds(), state::apply);
        } catch (IOException e) {
            state = null;
            throw new StorageException("Could not read log queue file: " + log.path(), e);
        }
        took(scan);
        if (scan.error() != null && forWrite) {
            cutAt(scan);
        }
    }

    private void took(QueueLogFile.Scan scan) {
        offset = scan.end();
        lines += scan.lines();
        lineNo = scan.endLine();
        for (QueueLogFile.Damage d : scan.damaged()) {
            damaged.add(d);
            LOG.warn("Skipped {} damaged bytes in {} at byte {} (line {}): {}; the events after them are kept",
                    d.length(), log.path(), d.offset(), d.line(), d.problem());
        }
    }

    /**
     * Replays the whole log into a fresh state, skipping damaged lines inside it.
     *
     * @param cut whether to cut a bad tail
     * @return what was cut
     */
    private QueueLogFile.Cut reload(boolean cut) {
        state = null;
        log.open();
        QueueState fresh = new QueueState();
        QueueLogFile.Scan scan;
        try {
            scan = QueueLogFile.scan(log.channel(), 0, 1, nowSeconds(), fresh::apply);
        } catch (IOException e) {
            throw new StorageException("Could not read log queue file: " + log.path(), e);
        }
        state = fresh;
        offset = 0;
        lines = 0;
        damaged.clear();
        took(scan);
        return scan.error() != null && cut ? cutAt(scan) : new QueueLogFile.Cut(0, null);
    }

    private QueueLogFile.Cut cutAt(QueueLogFile.Scan scan) {
        QueueLogFile.Cut cut = log.cut(scan.end());
        if (cut.bytes() > 0) {
            LOG.warn("Cut {} bytes from {} at byte {} (line {}): {}{}", cut.bytes(), log.path(), scan.end(),
                    scan.endLine(), scan.error(), cut.keptIn() == null ? "" : "; kept in " + cut.keptIn());
        }
        return cut;
    }

    private void fireEnqueued() {
        for (Runnable listener : enqueueListeners) {
            try {
                listener.run();
            } catch (RuntimeException e) {
                LOG.warn("Enqueue listener of {} failed", directory, e);
            }
        }
    }

    private int requeueProcessing(List<String> ids, boolean uncountClaim, long delayMs) {
        return locked(() -> {
            sync(true);
            long nowMs = options.clock().millis();
            long now = Math.floorDiv(nowMs, 1000L);
            QueueOp.Batch batch = new QueueOp.Batch();
            java.util.Set<String> seen = new java.util.HashSet<>();
            for (String id : ids) {
                QueueState.Job job = state.find(id);
                if (job == null || job.status != QueueState.Status.PROCESSING || !seen.add(job.id)) {
                    continue;
                }
                int attempts = uncountClaim ? Math.max(0, job.attempts - 1) : -1;
                batch.apply(state, QueueEvent.requeue(job.id, now, attempts, delayMs > 0 ? nowMs + delayMs : 0));
            }
            commitLocked(batch);
            return (int) batch.events;
        });
    }

    private int requeueLocked(long seconds) {
        long now = nowSeconds();
        List<String> ids = state.idsWithStatus(QueueState.Status.PROCESSING, now, seconds);
        QueueOp.Batch batch = new QueueOp.Batch();
        ids.forEach(id -> batch.apply(state, QueueEvent.requeue(id, now)));
        commitLocked(batch);
        return ids.size();
    }

    /**
     * Appends a batch whose events the state already applied, fsyncs once, then compacts when due.
     * On failure the file is cut back and the state dropped, so the next call re-reads the log.
     */
    private void commitLocked(QueueOp.Batch batch) {
        if (batch.events == 0) {
            return;
        }
        byte[] bytes = batch.out.toByteArray();
        try {
            log.append(bytes, offset); // commit point
        } catch (IOException | RuntimeException | Error e) {
            state = null;
            Throwable failure = e instanceof Error ? e : new StorageException("Could not write log queue file: "
                    + log.path() + (ReadOnlyFileSystem.isReadOnlyError(e) ? " (" + ReadOnlyFileSystem.READ_ONLY + ")" : ""), e);
            try {
                log.rollBack(offset);
            } catch (IOException | RuntimeException rollBackFailure) {
                failure.addSuppressed(new StorageException("Could not roll back " + log.path() + " to byte " + offset
                        + "; the next call re-reads the file", rollBackFailure));
            }
            if (failure instanceof Error error) {
                throw error;
            }
            throw (StorageException) failure;
        }
        offset += bytes.length;
        lines += batch.events;
        if (options.autoCompact() && offset >= options.compactionThresholdBytes()
                && lines > 2 * state.liveEvents() + 64) {
            try {
                compactLocked();
            } catch (RuntimeException e) {
                // The batch is durable; a failed compaction leaves the old, complete log in place.
                LOG.warn("Compaction of {} failed; the log keeps growing until the next try", log.path(), e);
            }
        }
    }

    private void compactLocked() {
        checkWritable();
        QueueCompaction.Rendered rendered = QueueCompaction.render(state);
        try {
            if (!damaged.isEmpty()) {
                // The new log holds only live events: keep the damaged bytes, which it drops, aside first.
                LOG.warn("Compaction of {} removes damaged lines: {}", log.path(), log.keepAside(damaged));
            }
            log.replace(rendered.bytes());
            damaged.clear();
        } catch (RuntimeException e) {
            state = null;
            throw e;
        }
        offset = rendered.bytes().length;
        lines = rendered.events();
        lineNo = rendered.events() + 1;
        state.trimLine();
    }

    private QueueStats statsLocked() {
        QueueCounts c = state.counts();
        long bytes;
        try {
            bytes = Files.size(log.path());
        } catch (NoSuchFileException e) {
            bytes = 0;
        } catch (IOException e) {
            bytes = offset;
        }
        return new QueueStats(c.pending(), c.processing(), c.done(), bytes);
    }

    private long nowSeconds() {
        return Math.floorDiv(options.clock().millis(), 1000L);
    }

    private static long wholeSeconds(Duration d, String name) {
        if (d == null || d.isNegative()) {
            throw new StorageException("Queue " + name + " must not be negative or null, got " + d);
        }
        long seconds = d.getSeconds();
        return d.getNano() > 0 ? seconds + 1 : seconds;
    }
}
