package dev.storh.doc;

import dev.storh.StorageRecord;
import dev.storh.doc.index.IndexDefinition;
import dev.storh.doc.index.IndexManager;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * One write operation under the collection lock: checks unique indexes, writes record files (in
 * batches) and then brings the indexes up to date.
 * Index maintenance of a bulk operation is applied once, after its records are durable, so each
 * value file is rewritten once per operation instead of once per record (W7). As in the original,
 * a crash between the records and the indexes leaves drift that {@code verify()} reports and
 * {@code reindex()} mends.
 */
final class WriteSession {

    private final RecordWriter.Batch batch;
    private final IndexManager indexes;
    private final List<IndexDefinition> definitions;
    private final Function<String, StorageRecord> readExisting;
    private final Map<String, Map<String, String>> uniqueValues = new HashMap<>();
    private final Map<String, Map<String, Object>> pendingIndexed = new HashMap<>();
    private final List<IndexManager.Change> changes = new ArrayList<>();

    /**
     * @param writer the record writer
     * @param indexes the collection's indexes
     * @param readExisting reads a record from disk (null when absent)
     */
    WriteSession(RecordWriter writer, IndexManager indexes, Function<String, StorageRecord> readExisting) {
        this.batch = writer.batch();
        this.indexes = indexes;
        this.definitions = indexes.definitions();
        this.readExisting = readExisting;
    }

    void put(PreparedRecord p) {
        if (definitions.isEmpty()) {
            batch.add(p);
            return;
        }
        Map<String, Object> before = null;
        if (pendingIndexed.containsKey(p.id())) {
            before = pendingIndexed.get(p.id());
        } else if (p.explicitId()) {
            StorageRecord old = readExisting.apply(p.id());
            before = old == null ? null : project(old.data());
        }
        indexes.checkUnique(p.id(), p.data(), uniqueValues);
        Map<String, Object> after = project(p.data());
        batch.add(p); // a record refused here (its bucket cannot be made) changes no index
        changes.add(new IndexManager.Change(p.id(), before, after));
        pendingIndexed.put(p.id(), after);
    }

    /** Records a deletion whose file is already gone. */
    void deleted(String id, StorageRecord old) {
        if (!definitions.isEmpty() && old != null) {
            changes.add(new IndexManager.Change(id, project(old.data()), null));
        }
    }

    /** Writes what is pending, then the index changes of everything written. */
    void finish() {
        batch.flush();
        indexes.apply(changes);
    }

    private Map<String, Object> project(Map<String, Object> data) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (IndexDefinition d : definitions) {
            if (data.containsKey(d.field())) {
                out.put(d.field(), data.get(d.field()));
            }
        }
        return out;
    }
}
