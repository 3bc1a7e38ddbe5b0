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
        int size = jobs instanceof java.util.Collection<?> c ? c.size() : -1;
        List<Checked> events = size >= 0 ? new ArrayList<>(size) : new ArrayList<>();
        IdBlocks generated = idGenerator == null ? new IdBlocks(size) : null;
        QueuePayloadJson.Scratch scratch = new QueuePayloadJson.Scratch(256);
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
                events.add(one(typed, (String) id, index, id == null && generated != null ? generated.next(index) : null, scratch));
            } else {
                events.add(one(job, null, index, generated != null ? generated.next(index) : null, scratch));
            }
            index++;
        }
        return events;
    }

    /**
     * New UUIDv7 ids for a bulk enqueue, drawn in blocks ({@link UuidV7#generateMany}): one clock
     * read and one lock per block rather than per job. The ids of a call are increasing in job
     * order, as one {@code generate()} per job would give them; ids of a block left unused are
     * dropped. Not thread-safe (one per call).
     */
    private static final class IdBlocks {
        private static final int MAX_BLOCK = 1024;
        private final int size;
        private String[] block = new String[0];
        private int next;
        private int blockSize = 8;

        /** @param size how many jobs the call holds, or -1 when unknown */
        IdBlocks(int size) {
            this.size = size;
        }

        /**
         * @param index the job's index in the call
         * @return a new id
         */
        String next(int index) {
            if (next == block.length) {
                int want = size >= 0 ? Math.min(MAX_BLOCK, Math.max(1, size - index)) : blockSize;
                blockSize = Math.min(MAX_BLOCK, blockSize * 2);
                block = UuidV7.generateMany(want);
                next = 0;
            }
            return block[next++];
        }
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
        return one(payload, id, index, null, null);
    }

    /**
     * @param newId a new id from {@link UuidV7} to use when {@code id} is {@code null}, or {@code null}
     *     to make one here
     * @param scratch a buffer reused for the payloads' JSON, or {@code null}
     */
    private Checked one(Map<String, ?> payload, String id, int index, String newId, QueuePayloadJson.Scratch scratch) {
        String jobId;
        if (id == null && newId != null) {
            jobId = newId;
        } else if (id != null) {
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
            if (QueuePayloadModel.isIntegerLike(text)) {
                throw new StorageException("Job payload key \"" + text + "\" looks like an integer: job " + jobId + where(index)
                        + "; the original drops such top-level keys when it reads the job");
            }
        }
        byte[] json;
        try {
            json = QueuePayloadJson.encodePayload(payload, scratch);
        } catch (StorageException e) {
            throw new StorageException("Job payload cannot be stored: job " + jobId + where(index) + ": " + e.getMessage(), e);
        }
        // The state holds what a replay would read (Long, Double, ...), never the caller's objects.
        Map<String, Object> model = QueuePayloadModel.replayCopy(payload);
        Map<String, Object> read = model != null ? model : QueuePayloadModel.reread(json);
        return new Checked(jobId, read, json, QueuePayloadModel.isFlat(read));
    }

    /** @return where a job was handed in, for messages: empty for a single enqueue */
    private static String where(int index) {
        return index < 0 ? "" : " (job " + index + " in enqueueMany)";
    }
}
