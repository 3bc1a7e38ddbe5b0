package dev.storh.cli;

import dev.storh.doc.DocStore;
import dev.storh.log.SegmentedLog;
import dev.storh.queue.Queue;
import dev.storh.store.Store;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.function.BiFunction;
import java.util.stream.Collectors;

/**
 * The three storage engines a collection folder can hold, by the word the command line uses for
 * them ({@code doc}, {@code log}, {@code queue}), each with how it opens as the store contract
 * and what the command line prints and counts for it.
 */
enum Engine {

    /**
     * A {@code DocStore} collection: {@code data/<bucket>/<id>.jsonc} and {@code .storh/}. Its
     * compaction rewrites nothing, so {@code compact} prints the report ({@code {ok, records}}).
     */
    DOC("doc", new Handling("document collection", "records", false, DocStore::open)),
    /** A {@code SegmentedLog}: {@code manifest.jsonc} and {@code segments/}. */
    LOG("log", new Handling("segmented log", "segments", true, SegmentedLog::open)),
    /** A {@code Queue}: {@code queue.log} and {@code queue.lock}. */
    QUEUE("queue", new Handling("queue", "events", true, Queue::open));

    private final String word;
    private final Handling handling;

    Engine(String word, Handling handling) {
        this.word = word;
        this.handling = handling;
    }

    /**
     * @return the command-line word: {@code doc}, {@code log} or {@code queue}
     */
    String word() {
        return word;
    }

    /**
     * @return what the engine is called in messages, e.g. {@code "segmented log"}
     */
    String description() {
        return handling.description();
    }

    /**
     * @param word {@code doc}, {@code log} or {@code queue}, exactly (lowercase, as the original)
     * @return the engine
     * @throws IllegalArgumentException {@code "Unknown engine: <word> (expected doc, log or queue)"}
     */
    static Engine fromWord(String word) {
        for (Engine e : values()) {
            if (e.word.equals(word)) {
                return e;
            }
        }
        throw new IllegalArgumentException("Unknown engine: " + word + " (expected " + words() + ")");
    }

    /**
     * @return {@code "doc, log or queue"}
     */
    static String words() {
        String all = Arrays.stream(values()).map(Engine::word).collect(Collectors.joining(", "));
        int last = all.lastIndexOf(", ");
        return all.substring(0, last) + " or " + all.substring(last + 2);
    }

    /**
     * @return how the command line opens the engine and shows its work
     */
    Handling handling() {
        return handling;
    }

    @Override
    public String toString() {
        return word;
    }

    /**
     * How the command line names, opens and reports an engine.
     *
     * @param description what the engine is called in messages, e.g. {@code "segmented log"}
     * @param unit what the engine's progress counts: {@code records}, {@code segments} or {@code events}
     * @param statsAfterCompact whether {@code compact} prints the store's stats after the compaction
     *     (a log and a queue, as the original does) rather than the compaction's report (a collection)
     * @param opener opens a store of the engine with default options: root, name
     */
    record Handling(String description, String unit, boolean statsAfterCompact, BiFunction<Path, String, Store<?, ?, ?>> opener) {

        /**
         * @param root the storage root
         * @param collection the collection, log or queue name under the root
         * @return the open store; close it
         * @throws dev.storh.StorageException when the store cannot be opened
         */
        Store<?, ?, ?> open(Path root, String collection) {
            return opener.apply(root, collection);
        }
    }
}
