package dev.storh.fs;

import java.nio.file.Path;

/**
 * The names every engine keeps under its own folder, computed in one place: the metadata folder
 * {@code .storh/} and the writer markers in {@code .storh/writers/} (see {@link WriterMarkers}).
 * The engines' layout classes ({@code DocLayout}, {@code LogFiles}, {@code QueueFiles}) name
 * everything else. Stateless; no method touches the disk.
 */
public final class MetaLayout {

    /** The storh metadata folder of a store. */
    public static final String META = ".storh";
    /** The writer markers' folder, relative to the store's folder. */
    public static final String WRITERS = META + "/writers";
    /** The commit records of a root's Spring transactions, relative to the root (see docs/transactions.md). */
    public static final String TRANSACTIONS = META + "/transactions";

    private MetaLayout() {
    }

    /**
     * @param storeRoot a store's folder
     * @return its {@code .storh/writers} folder
     */
    public static Path writersDirectory(Path storeRoot) {
        return storeRoot.resolve(META).resolve("writers");
    }

    /**
     * @param writerPrefix a writing instance's {@code <pid>.<8 hex>}
     * @return {@code .storh/writers/<pid>.<8 hex>}, relative to the store's folder
     */
    public static String writerMarker(String writerPrefix) {
        return WRITERS + "/" + writerPrefix;
    }
}
