package dev.storh.queue;

import dev.storh.StorageException;
import dev.storh.id.UuidV7;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Checks what producers hand to {@link Queue#enqueue} and {@link Queue#enqueueMany} before anything
 * is written, and turns it into enqueue events: the id (given, from the custom generator, or a new
 * UUIDv7; stored lowercase), the payload (string keys that do not look like integers, storable as
 * JSON) re-read as a replay would read it. Errors name the job's id and index. Stateless apart
 * from the generator; thread-safe.
 */
final class QueueJobInput {

    /**
     * A checked job, stamped with the time when it is written.
     *
     * @param id its id, lowercase
     * @param payload the payload as a replay reads it
     * @param payloadJson the payload's compact JSON as it is written, so the writer does not encode it again
     * @param flat whether the payload holds no map or list at its top level
     */
    record Checked(String id, Map<String, Object> payload, byte[] payloadJson, boolean flat) {
    }

    private final Supplier<String> idGenerator;

    /**
     * @param idGenerator the custom id generator, or {@code null} for UUIDv7
     */
    QueueJobInput(Supplier<String> idGenerator) {
        this.idGenerator = idGenerator;
    }

    /**
     * @param jobs items {@code {"id": ..., "payload": {...}}} (id optional), or a payload itself
     *     when its {@code payload} is not an object
     * @return one checked job per item, in order
     * @throws StorageException naming the job index and id
     */
    List<Checked> many(Iterable<? extends Map<String, ?>> jobs) {
        List<Checked> events = jobs instanceof java.util.Collection<?> c ? new ArrayList<>(c.size()) : new ArrayList<>();
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
                events.add(one(typed, (String) id, index));
            } else {
                events.add(one(job, null, index));
            }
            index++;
        }
        return events;
    }

    /**
     * @param ids job ids
     * @return them, each checked as a UUIDv7, in order
     * @throws StorageException {@code "Invalid UUIDv7 value."} naming the first bad id
     */
    static List<String> ids(Iterable<String> ids) {
        List<String> list = new ArrayList<>();
        for (String id : ids) {
            list.add(UuidV7.assertValid(id));
        }
        return list;
    }

    /**
     * @param payload the job's data
     * @param id a UUIDv7, or {@code null} to generate one
     * @param index the job's index in {@code enqueueMany}, or -1 for a single enqueue
     * @return the checked job
     * @throws StorageException naming the id, the index and the field
     */
    Checked one(Map<String, ?> payload, String id, int index) {
        String jobId;
        if (id != null) {
            try {
                jobId = UuidV7.normalize(id);
            } catch (StorageException e) {
                throw new StorageException(e.getMessage() + where(index), e);
            }
        } else if (idGenerator != null) {
            String generated = idGenerator.get();
            try {
                jobId = UuidV7.normalize(generated);
            } catch (StorageException e) {
                throw new StorageException(e.getMessage() + " (from the custom id generator)" + where(index), e);
            }
        } else {
            jobId = UuidV7.generate();
        }
        if (payload == null) {
            throw new StorageException("Job payload must not be null: job " + jobId + where(index));
        }
        for (Object key : payload.keySet()) {
            if (!(key instanceof String text)) {
                throw new StorageException("Job payload key must be a string: job " + jobId + where(index) + ", key " + key);
            }
            if (QueueEventCodec.isIntegerLike(text)) {
                throw new StorageException("Job payload key \"" + text + "\" looks like an integer: job " + jobId + where(index)
                        + "; the original drops such top-level keys when it reads the job");
            }
        }
        byte[] json;
        try {
            json = QueueEventCodec.encodePayload(payload);
        } catch (StorageException e) {
            throw new StorageException("Job payload cannot be stored: job " + jobId + where(index) + ": " + e.getMessage(), e);
        }
        // The state holds what a replay would read (Long, Double, ...), never the caller's objects.
        Map<String, Object> model = QueueEventCodec.replayCopy(payload);
        Map<String, Object> read = model != null ? model : QueueEventCodec.reread(json);
        return new Checked(jobId, read, json, QueueEventCodec.isFlat(read));
    }

    /** @return where a job was handed in, for messages: empty for a single enqueue */
    private static String where(int index) {
        return index < 0 ? "" : " (job " + index + " in enqueueMany)";
    }
}
