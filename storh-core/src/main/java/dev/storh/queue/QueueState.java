package dev.storh.queue;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The queue's state, rebuilt by replaying {@code queue.log}.
 *
 * <p>Every known job is one {@link Job}: its payload (absent once completed or purged), its status
 * (pending, processing since a claim time, or done since a completion time) and its place in line.
 * A job with none of the three statuses is forgotten. The events change it so:
 *
 * <pre>
 * enqueue   payload := normalised payload; status := pending; goes to the back of the line (any prior state)
 * claim     pending only: status := processing(ts), payload kept; else nothing
 * complete  payload dropped; done:true → status := done(ts), even for an unknown id; else forgotten
 * requeue   processing only: status := pending, back of the line
 * purge     payload dropped whatever the status; a done job is forgotten
 * </pre>
 *
 * <p>storh also keeps, per job, an attempt count and a retry time the original ignores: enqueue
 * sets them from its extra keys (0 and none when absent), every claim that applies counts one
 * attempt and clears the retry time, and a requeue sets the retry time and, when it carries one,
 * the attempt count. {@link #claimable} skips pending jobs whose retry time has not come.
 *
 * <p>Claim order is FIFO by event position. The line is a deque of (job, sequence) entries; an
 * enqueue or requeue appends an entry and stamps the job with that sequence, so only a job's
 * <em>last</em> entry counts and stale entries are skipped when they reach the head. Every
 * instance therefore claims in the same order, the writer too (the original's writer claims a
 * re-enqueued job at its old place: W16).
 *
 * <p>Not thread-safe: the {@link Queue} only touches it under the queue lock.
 */
final class QueueState {

    /** A job's status. */
    enum Status { PENDING, PROCESSING, DONE }

    /** One known job. */
    static final class Job {
        final String id;
        /** The payload; {@code null} once dropped by complete or purge. */
        Map<String, Object> payload;
        /** When it was last enqueued, Unix seconds; only kept to rewrite the event on compaction. */
        long enqueueTs;
        /** {@code null} once forgotten. */
        Status status;
        /** Claim time (processing) or completion time (done), Unix seconds. */
        long statusTs;
        /** The sequence of the job's last entry in line. */
        long orderSeq;
        /** The sequence of the event that set the status: claim order for processing jobs. */
        long statusSeq;
        /** Claims since the last enqueue, or as a requeue set it. */
        int attempts;
        /** Unix milliseconds before which the job is not claimed; 0 for none. */
        long retryAtMs;
        /** The payload whose shape {@link #flat} tells, or null. */
        private Map<String, Object> shaped;
        /** Whether {@link #shaped} holds no map or list (so it can be handed out as it is). */
        private boolean flat;

        Job(String id) {
            this.id = id;
        }

        /**
         * Records whether the payload just set holds no map or list, when the caller knows it, so
         * {@link #handOut} does not look at it again.
         *
         * @param flatPayload whether {@link #payload} holds no map or list at its top level
         */
        void knownShape(boolean flatPayload) {
            shaped = payload;
            flat = flatPayload;
        }

        /**
         * @return the payload as a caller may get it ({@link QueuePayloadModel#handOut}): itself when
         *     it holds no map or list (looked at once per payload: a claimed job that is requeued and
         *     claimed again is not looked at again), else a deep copy
         */
        Map<String, Object> handOut() {
            Map<String, Object> p = payload;
            if (p != shaped) {
                flat = QueuePayloadModel.isFlat(p);
                shaped = p;
            }
            return flat ? p : QueuePayloadModel.handOut(p);
        }
    }

    private record Entry(Job job, long seq) {
        boolean live() {
            return job.status == Status.PENDING && job.orderSeq == seq;
        }
    }

    private Map<String, Job> jobs = new HashMap<>();
    private final ArrayDeque<Entry> line = new ArrayDeque<>();
    private long nextSeq;
    private int pending;
    private int processing;
    private int done;

    /**
     * Applies one event (the rules in the class comment). An event that creates a job when it is
     * unknown (an enqueue, a complete with {@code done:true}) looks the job table up once.
     *
     * @param e the event
     * @return the job with the event's id after it, or {@code null} when there is none
     */
    Job apply(QueueEvent e) {
        Job job = e.op() == QueueEvent.Op.ENQUEUE || e.op() == QueueEvent.Op.COMPLETE && e.done()
                ? jobs.computeIfAbsent(e.id(), Job::new) : jobs.get(e.id());
        apply(job, e);
        return job;
    }

    /**
     * Makes room in the job table for {@code more} new jobs at once when the table is empty (a
     * first batch or replay), so a large batch does not grow it step by step.
     *
     * @param more how many jobs are about to be added
     */
    void expect(int more) {
        if (jobs.isEmpty() && more > 12) {
            jobs = new HashMap<>((int) Math.min(1L << 30, more * 4L / 3 + 1));
        }
    }

    /**
     * Applies a complete to a known job, without an event object.
     *
     * @param job a known job
     * @param done whether the job is kept as done (else it is forgotten)
     * @param ts the completion time, Unix seconds
     */
    void complete(Job job, boolean done, long ts) {
        if (done) {
            job.payload = null;
            setStatus(job, Status.DONE, ts);
        } else {
            forget(job);
        }
    }

    /**
     * Applies a claim to a pending job {@link #claimable} gave, without an event object.
     *
     * @param job a pending job
     * @param ts the claim time, Unix seconds
     */
    void claim(Job job, long ts) {
        setStatus(job, Status.PROCESSING, ts);
        job.attempts++;
        job.retryAtMs = 0;
    }

    /**
     * Applies one event to a job the caller already looked up ({@link #find}, {@link #claimable}), so
     * the job table is not searched again.
     *
     * @param job the known job with the event's id, or {@code null} when there is none
     * @param e the event
     */
    void apply(Job job, QueueEvent e) {
        switch (e.op()) {
            case ENQUEUE:
                if (job == null) {
                    job = new Job(e.id());
                    jobs.put(e.id(), job);
                }
                setStatus(job, Status.PENDING, 0);
                job.payload = e.payload();
                job.enqueueTs = e.ts();
                job.attempts = Math.max(0, e.attempts());
                job.retryAtMs = e.retryAtMs();
                enterLine(job);
                break;
            case CLAIM:
                if (job != null && job.status == Status.PENDING) {
                    setStatus(job, Status.PROCESSING, e.ts());
                    job.attempts++;
                    job.retryAtMs = 0;
                }
                break;
            case COMPLETE:
                if (e.done() && job == null) {
                    job = new Job(e.id());
                    jobs.put(e.id(), job);
                }
                if (job != null) {
                    complete(job, e.done(), e.ts());
                }
                break;
            case REQUEUE:
                if (job != null && job.status == Status.PROCESSING) {
                    setStatus(job, Status.PENDING, 0);
                    if (e.attempts() >= 0) {
                        job.attempts = e.attempts();
                    }
                    job.retryAtMs = e.retryAtMs();
                    enterLine(job);
                }
                break;
            case PURGE:
                if (job != null) {
                    job.payload = null;
                    if (job.status == Status.DONE) {
                        forget(job);
                    }
                }
                break;
            default:
                throw new IllegalStateException("Unknown op " + e.op());
        }
    }

    private void enterLine(Job job) {
        job.orderSeq = nextSeq++;
        line.addLast(new Entry(job, job.orderSeq));
    }

    private void setStatus(Job job, Status status, long ts) {
        count(job.status, -1);
        job.status = status;
        job.statusTs = ts;
        job.statusSeq = nextSeq++;
        count(status, 1);
    }

    private void forget(Job job) {
        count(job.status, -1);
        job.status = null;
        job.payload = null;
        jobs.remove(job.id);
    }

    private void count(Status status, int delta) {
        if (status == Status.PENDING) {
            pending += delta;
        } else if (status == Status.PROCESSING) {
            processing += delta;
        } else if (status == Status.DONE) {
            done += delta;
        }
    }

    /**
     * @return the first pending job in line, or {@code null}; stale entries before it are dropped
     */
    Job nextPending() {
        while (!line.isEmpty()) {
            Entry head = line.peekFirst();
            if (head.live()) {
                return head.job;
            }
            line.pollFirst();
        }
        return null;
    }

    /**
     * The pending jobs a claim takes, in line order, skipping jobs whose retry time is later than
     * {@code nowMs}; stale entries at the head of the line are dropped.
     *
     * @param limit the most jobs
     * @param nowMs the current time, Unix milliseconds
     * @return up to {@code limit} jobs, still pending (the caller applies their claims)
     */
    List<Job> claimable(int limit, long nowMs) {
        List<Job> found = new ArrayList<>(Math.max(0, Math.min(limit, pending)));
        Iterator<Entry> it = line.iterator();
        boolean head = true;
        while (it.hasNext() && found.size() < limit) {
            Entry entry = it.next();
            if (!entry.live()) {
                if (head) {
                    it.remove();
                }
                continue;
            }
            head = false;
            if (entry.job.retryAtMs <= nowMs) {
                found.add(entry.job);
            }
        }
        return found;
    }

    /**
     * @param id a job id, matched exactly, then in lowercase (storh writes lowercase ids)
     * @return the job, or {@code null}
     */
    Job find(String id) {
        Job job = jobs.get(id);
        if (job == null) {
            String lower = id.toLowerCase(java.util.Locale.ROOT);
            job = lower.equals(id) ? null : jobs.get(lower);
        }
        return job;
    }

    /**
     * @param status a status
     * @param nowSeconds the current time
     * @param minAgeSeconds the least age of the status; 0 selects every job with that status
     * @return the ids with that status whose status time is at least that old, in the order they
     *     got it (claim or completion order, as the original iterates them)
     */
    List<String> idsWithStatus(Status status, long nowSeconds, long minAgeSeconds) {
        List<Job> found = new ArrayList<>();
        for (Job job : jobs.values()) {
            if (job.status == status && (minAgeSeconds == 0 || nowSeconds - job.statusTs >= minAgeSeconds)) {
                found.add(job);
            }
        }
        found.sort((a, b) -> Long.compare(a.statusSeq, b.statusSeq));
        List<String> ids = new ArrayList<>(found.size());
        found.forEach(j -> ids.add(j.id));
        return ids;
    }

    /**
     * @return the ids of pending jobs in claim order (each at its last place in line)
     */
    List<String> pendingOrder() {
        List<String> ids = new ArrayList<>(pending);
        for (Entry entry : line) {
            if (entry.live()) {
                ids.add(entry.job.id);
            }
        }
        return ids;
    }

    /**
     * Drops stale entries from the line (after a compaction, so the deque holds one entry per
     * pending job).
     */
    void trimLine() {
        line.removeIf(entry -> !entry.live());
    }

    /**
     * @return the jobs that are processing or done, in the order they got that status
     */
    List<Job> settledJobs() {
        List<Job> list = new ArrayList<>(processing + done);
        for (Job job : jobs.values()) {
            if (job.status != Status.PENDING) {
                list.add(job);
            }
        }
        list.sort((a, b) -> Long.compare(a.statusSeq, b.statusSeq));
        return list;
    }

    /**
     * @return the pending jobs in claim order
     */
    List<Job> pendingJobs() {
        List<Job> list = new ArrayList<>(pending);
        for (Entry entry : line) {
            if (entry.live()) {
                list.add(entry.job);
            }
        }
        return list;
    }

    QueueCounts counts() {
        return new QueueCounts(pending, processing, done);
    }

    /**
     * Lines a compacted log needs for this state: one per pending job, two per processing job, one
     * per done job, plus a purge line for each live job without payload (an estimate is enough).
     *
     * @return the number of live events
     */
    long liveEvents() {
        return (long) pending + 2L * processing + done;
    }

    /**
     * Compares everything the original's verify compares: payloads, pending, processing
     * with claim times, done with completion times, and the effective pending order.
     *
     * @param other a freshly replayed state
     * @return whether both are the same
     */
    boolean sameAs(QueueState other) {
        if (pending != other.pending || processing != other.processing || done != other.done
                || jobs.size() != other.jobs.size()) {
            return false;
        }
        for (Job job : jobs.values()) {
            Job twin = other.jobs.get(job.id);
            if (twin == null || twin.status != job.status || !Objects.equals(job.payload, twin.payload)
                    || (job.status != Status.PENDING && job.statusTs != twin.statusTs)) {
                return false;
            }
        }
        return pendingOrder().equals(other.pendingOrder());
    }

    /** For the drift test: forgets every pending job, as if memory were damaged. */
    void dropPendingForTesting() {
        for (Iterator<Job> it = jobs.values().iterator(); it.hasNext();) {
            Job job = it.next();
            if (job.status == Status.PENDING) {
                job.status = null;
                it.remove();
            }
        }
        pending = 0;
        line.clear();
    }
}
