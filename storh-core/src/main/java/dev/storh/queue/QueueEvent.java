package dev.storh.queue;

import java.util.Map;

/**
 * One event of {@code queue.log}, as written or as read back.
 *
 * @param op what happened
 * @param id the job id, a UUIDv7 exactly as written (never normalised on read)
 * @param payload the job payload for {@link Op#ENQUEUE} (normalised as on read: never {@code null},
 *     no integer-like top-level keys); {@code null} for the other ops
 * @param done for {@link Op#COMPLETE}: whether the job is kept as done ({@code "done":true})
 * @param ts Unix time in whole seconds
 * @param attempts for {@link Op#ENQUEUE} and {@link Op#REQUEUE}: the job's attempt count from
 *     then on (key {@code "attempts"}, which the original ignores), or {@code -1} when absent
 * @param retryAtMs for {@link Op#ENQUEUE} and {@link Op#REQUEUE}: Unix milliseconds before which
 *     the job is not claimed (key {@code "retryAt"}, which the original ignores), or {@code 0}
 */
record QueueEvent(Op op, String id, Map<String, Object> payload, boolean done, long ts, int attempts,
        long retryAtMs) {

    /** An event of the original's shape, without storh's extra keys. */
    QueueEvent(Op op, String id, Map<String, Object> payload, boolean done, long ts) {
        this(op, id, payload, done, ts, -1, 0);
    }

    /** The five event types; the original treats any other op as corruption (W14). */
    enum Op {
        ENQUEUE("enqueue"), CLAIM("claim"), COMPLETE("complete"), REQUEUE("requeue"), PURGE("purge");

        private final String wire;

        Op(String wire) {
            this.wire = wire;
        }

        /**
         * @return the {@code op} value on disk
         */
        String wire() {
            return wire;
        }

        /**
         * @param wire an {@code op} value from disk
         * @return the op, or {@code null} when unknown
         */
        static Op fromWire(String wire) {
            switch (wire) {
                case "enqueue": return ENQUEUE;
                case "claim": return CLAIM;
                case "complete": return COMPLETE;
                case "requeue": return REQUEUE;
                case "purge": return PURGE;
                default: return null;
            }
        }
    }

    static QueueEvent enqueue(String id, Map<String, Object> payload, long ts) {
        return new QueueEvent(Op.ENQUEUE, id, payload, false, ts);
    }

    /**
     * An enqueue carrying storh's extra keys (a compaction keeping a job's attempts and retry time).
     *
     * @param attempts the attempt count, or {@code -1} for none
     * @param retryAtMs Unix milliseconds before which the job is not claimed, or {@code 0}
     */
    static QueueEvent enqueue(String id, Map<String, Object> payload, long ts, int attempts, long retryAtMs) {
        return new QueueEvent(Op.ENQUEUE, id, payload, false, ts, attempts, retryAtMs);
    }

    static QueueEvent claim(String id, long ts) {
        return new QueueEvent(Op.CLAIM, id, null, false, ts);
    }

    static QueueEvent complete(String id, boolean done, long ts) {
        return new QueueEvent(Op.COMPLETE, id, null, done, ts);
    }

    static QueueEvent requeue(String id, long ts) {
        return new QueueEvent(Op.REQUEUE, id, null, false, ts);
    }

    /**
     * A requeue carrying storh's extra keys (a listener's retry or release).
     *
     * @param attempts the attempt count from then on, or {@code -1} to keep the counted one
     * @param retryAtMs Unix milliseconds before which the job is not claimed, or {@code 0}
     */
    static QueueEvent requeue(String id, long ts, int attempts, long retryAtMs) {
        return new QueueEvent(Op.REQUEUE, id, null, false, ts, attempts, retryAtMs);
    }

    static QueueEvent purge(String id, long ts) {
        return new QueueEvent(Op.PURGE, id, null, false, ts);
    }
}
