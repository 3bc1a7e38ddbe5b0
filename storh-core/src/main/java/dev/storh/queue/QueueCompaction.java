package dev.storh.queue;

import java.io.ByteArrayOutputStream;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Renders a queue state as the shortest event log that replays to the same state, for compaction
 * (the original's log only grows: W4). The output uses only the five original events, so the
 * original replays it too:
 *
 * <pre>
 * pending job, in claim order     enqueue(id, payload, enqueue ts)
 * processing job                  enqueue(id, payload, enqueue ts), claim(id, claim ts)
 * done job                        complete(id, done:true, completion ts)   (complete alone creates it)
 * live job whose payload was purged: the lines above plus purge(id), so the payload stays absent
 * </pre>
 * A live job's enqueue line carries storh's extra keys (ignored by the original) when it has
 * attempts or a retry time, so both survive: {@code "attempts"} counts the claims before the last
 * one (the claim line counts again on replay) and {@code "retryAt"} keeps a retry's delay.
 *
 * Payloads, pending order, claim times and completion times all survive, so {@code verify()} of
 * another instance that replays the new file finds no drift. Stateless.
 */
final class QueueCompaction {

    /** The rendered log. */
    record Rendered(byte[] bytes, long events) {
    }

    private QueueCompaction() {
    }

    static Rendered render(QueueState state) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(1 << 16);
        long events = 0;
        for (QueueState.Job job : state.pendingJobs()) {
            events += writeLive(out, job, job.attempts);
        }
        for (QueueState.Job job : state.settledJobs()) {
            if (job.status == QueueState.Status.PROCESSING) {
                events += writeLive(out, job, job.attempts - 1);
                out.writeBytes(QueueEventCodec.encodeLine(QueueEvent.claim(job.id, job.statusTs)));
                events++;
            } else {
                out.writeBytes(QueueEventCodec.encodeLine(QueueEvent.complete(job.id, true, job.statusTs)));
                events++;
            }
        }
        return new Rendered(out.toByteArray(), events);
    }

    private static int writeLive(ByteArrayOutputStream out, QueueState.Job job, int attempts) {
        Map<String, Object> payload = job.payload == null ? new LinkedHashMap<>() : job.payload;
        out.writeBytes(QueueEventCodec.encodeLine(QueueEvent.enqueue(job.id, payload, job.enqueueTs,
                attempts > 0 ? attempts : -1, job.retryAtMs)));
        if (job.payload == null) {
            out.writeBytes(QueueEventCodec.encodeLine(QueueEvent.purge(job.id, job.enqueueTs)));
            return 2;
        }
        return 1;
    }
}
