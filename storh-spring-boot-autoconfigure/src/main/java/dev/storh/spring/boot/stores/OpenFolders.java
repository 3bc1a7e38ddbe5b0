package dev.storh.spring.boot.stores;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import dev.storh.StorageException;
import dev.storh.store.StoreNames;

/**
 * The store folders every {@link StorhStores} registry of this JVM has open, so that no two
 * registries open one store (one of them with other options, a second cache, a second writer
 * marker): a registry claims a folder before it opens the store and gives it back when it closes.
 * A folder inside a held folder, or holding one, counts as held. Thread-safe (one JVM-wide lock,
 * held only to look up and record a claim).
 */
final class OpenFolders {

    private static final Map<Path, StorhStores> HELD = new HashMap<>();

    private OpenFolders() {
    }

    /**
     * @param collectionsFolder the registry's folder
     * @param type what the name names
     * @param name the store name
     * @return the store's folder as the engines compute it from the name, or {@code null} when the
     * name is refused (the engine then refuses it with its own message)
     */
    static Path folderOf(Path collectionsFolder, StoreType type, String name) {
        try {
            return (type == StoreType.LOG) ? StoreNames.folders(collectionsFolder, "log collection", name)
                    : StoreNames.folder(collectionsFolder, type.tag(), name);
        }
        catch (StorageException ex) {
            return null;
        }
    }

    /**
     * @param folder the store's folder, absolute and normalised; {@code null} claims nothing
     * @param owner the registry opening it
     * @param what the store, for the message
     * @throws IllegalStateException naming both registries' folders when another registry holds it
     */
    static synchronized void claim(Path folder, StorhStores owner, String what) {
        if (folder == null) {
            return;
        }
        for (Map.Entry<Path, StorhStores> held : HELD.entrySet()) {
            Path other = held.getKey();
            if (held.getValue() != owner && (folder.startsWith(other) || other.startsWith(folder))) {
                throw new IllegalStateException("Cannot open the storh " + what + " in " + folder + ": "
                        + other + " is already open in this JVM by another StorhStores registry (collections folder "
                        + held.getValue().collectionsFolder() + "); one registry owns each store, so share that "
                        + "registry (e.g. build the StorhTemplate over it) instead of opening the folder again");
            }
        }
        HELD.put(folder, owner);
    }

    /**
     * @param folder a folder the owner claimed; {@code null} releases nothing
     * @param owner the registry
     */
    static synchronized void release(Path folder, StorhStores owner) {
        if (folder != null) {
            HELD.remove(folder, owner);
        }
    }

    /**
     * @param owner a registry that closed
     */
    static synchronized void releaseAll(StorhStores owner) {
        HELD.values().removeIf((held) -> held == owner);
    }

}
