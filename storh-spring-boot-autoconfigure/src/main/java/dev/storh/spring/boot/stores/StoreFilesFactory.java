package dev.storh.spring.boot.stores;

import java.nio.file.Path;
import java.util.function.Function;

import dev.storh.fs.LocalFiles;
import dev.storh.fs.StoreFiles;

/**
 * Where the stores of a {@link StorhStores} registry keep their bytes: makes the byte seam of each
 * store folder below the registry's collections folder. The engines are the same on every backend;
 * only the seam changes. {@link #LOCAL} (the default) is the local file system; a bean of this type
 * replaces it for every collection, log and queue Boot opens (storh-azure-blob defines one with
 * {@code storh.backend=azure-blob}).
 * <p>
 * Implementations are thread-safe: the engines call {@link #files} from any thread.
 */
@FunctionalInterface
public interface StoreFilesFactory {

    /** The local file system: the folders are real folders below the collections folder. */
    StoreFilesFactory LOCAL = new StoreFilesFactory() {

        @Override
        public StoreFiles files(Path collectionsFolder, Path folder) {
            return LocalFiles.at(folder);
        }

        @Override
        public boolean isLocal() {
            return true;
        }

    };

    /**
     * @param collectionsFolder the registry's collections folder, absolute
     * @param folder a store's folder below it (or the collections folder itself), as the engine
     * names it
     * @return the seam the engine reaches that folder's files through
     * @throws IllegalArgumentException when {@code folder} is not below {@code collectionsFolder}
     */
    StoreFiles files(Path collectionsFolder, Path folder);

    /**
     * @return whether the folders are local folders (then the collections folder is checked for
     * writing at startup); {@code false} for a remote backend, whose folders are names only
     */
    default boolean isLocal() {
        return false;
    }

    /**
     * @param collectionsFolder the registry's collections folder
     * @return the engines' {@code files(...)} option for stores below it
     */
    default Function<Path, StoreFiles> under(Path collectionsFolder) {
        return (folder) -> files(collectionsFolder, folder);
    }

}
