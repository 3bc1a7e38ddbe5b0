package dev.storh.cli;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * The three storage engines a collection folder can hold, by the word the command line uses for
 * them ({@code doc}, {@code log}, {@code queue}).
 */
enum Engine {

    /** A {@code DocStore} collection: {@code data/<bucket>/<id>.jsonc} and {@code .storh/}. */
    DOC("doc", "document collection"),
    /** A {@code SegmentedLog}: {@code manifest.jsonc} and {@code segments/}. */
    LOG("log", "segmented log"),
    /** A {@code Queue}: {@code queue.log} and {@code queue.lock}. */
    QUEUE("queue", "queue");

    private final String word;
    private final String description;

    Engine(String word, String description) {
        this.word = word;
        this.description = description;
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
        return description;
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

    @Override
    public String toString() {
        return word;
    }
}
