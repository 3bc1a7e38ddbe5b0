package dev.storh.fs;

import dev.storh.StorageException;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Whole folders through a byte seam: a rebuilt tree swapped in for the live one, a tree deleted.
 * Stateless and thread-safe; failures are {@link StorageException}s naming the path.
 */
public final class FolderTrees {

    private FolderTrees() {
    }

    /**
     * Puts the folder {@code built} in the place of the folder {@code live} and deletes the tree
     * that was there, e.g. to swap in a rebuilt index. On Linux the two are exchanged with
     * {@code renameat2(RENAME_EXCHANGE)}: a reader in any process resolves {@code live} to the
     * old tree or the new one, never to nothing. Elsewhere {@code live} is first renamed aside,
     * which leaves a short moment without it: {@code onGap} runs around that moment, so callers
     * serving readers of this JVM can exclude them (e.g. run it under a write lock).
     *
     * @param built the complete new folder, in the same folder as {@code live}
     * @param live the folder to replace; may be missing (then {@code built} is just renamed)
     * @param aside a free name beside {@code live} for the old tree, deleted afterwards (it stays
     *     there when it cannot be deleted: the swap is done and not reported failed)
     * @param gap runs the renames that may leave {@code live} missing for a moment
     * @throws StorageException naming the paths when a rename or the folder fsync fails ({@code live}
     *     is then still the old tree, or already the new one when only the fsync failed)
     */
    public static void replaceTree(Path built, Path live, Path aside, java.util.function.Consumer<Runnable> gap) {
        StoreFiles files = LocalFiles.at(live.toAbsolutePath().getParent());
        replaceTree(files, files.nameOf(built.toAbsolutePath()), files.nameOf(live.toAbsolutePath()),
                files.nameOf(aside.toAbsolutePath()), gap);
    }

    /**
     * {@link #replaceTree(Path, Path, Path, java.util.function.Consumer)} through a byte seam: the
     * seam's {@link StoreFiles#exchange} where it can, else two renames; the old tree is then
     * deleted through the seam.
     *
     * @param files the seam
     * @param built the complete new folder's name, in the same folder as {@code live}
     * @param live the folder to replace; may be missing
     * @param aside a free name beside {@code live} for the old tree; a tree that cannot be deleted
     *     after the swap stays there (the swap is not undone for it, nor reported failed)
     * @param gap runs the renames that may leave {@code live} missing for a moment
     * @throws StorageException naming the paths when a rename or the folder fsync fails ({@code live}
     *     is then still the old tree, or already the new one when only the fsync failed)
     */
    public static void replaceTree(StoreFiles files, String built, String live, String aside,
            java.util.function.Consumer<Runnable> gap) {
        String parent = AtomicFiles.parentName(live);
        try {
            if (isDirectory(files, live) && files.exchange(built, live)) {
                AtomicFiles.syncDirectory(files, parent);
                if (!deleteTreeQuietly(files, built)) { // built now names the old tree
                    // What could not be deleted is a replaced tree, no longer one being built: it
                    // takes the replaced tree's name, which the next sweep of leftovers removes.
                    try {
                        files.rename(built, aside);
                        files.syncDirectory(parent);
                    } catch (IOException | RuntimeException stays) {
                        // removed by the next sweep under its build name
                    }
                }
                return;
            }
        } catch (IOException e) {
            throw new StorageException("Could not move " + files.path(built) + " into place of " + files.path(live), e);
        }
        StorageException[] failed = {null};
        gap.accept(() -> {
            try {
                if (files.exists(live)) {
                    files.rename(live, aside);
                }
                files.rename(built, live);
            } catch (IOException | RuntimeException e) {
                try {
                    if (!files.exists(live) && files.exists(aside)) {
                        files.rename(aside, live);
                    }
                } catch (IOException restore) {
                    e.addSuppressed(restore);
                }
                failed[0] = new StorageException("Could not move " + files.path(built) + " into place of "
                        + files.path(live), e);
            }
        });
        if (failed[0] != null) {
            throw failed[0];
        }
        AtomicFiles.syncDirectory(files, parent);
        deleteTreeQuietly(files, aside);
    }

    /**
     * The swap is done: a tree that cannot be removed now stays, for the caller's leftover sweep.
     *
     * @return whether it is gone
     */
    private static boolean deleteTreeQuietly(StoreFiles files, String name) {
        try {
            deleteTree(files, name);
            return true;
        } catch (StorageException leftover) {
            return false;
        }
    }

    private static boolean isDirectory(StoreFiles files, String name) throws IOException {
        return files.stat(name).map(e -> e.kind() == StoreFiles.Entry.Kind.DIRECTORY).orElse(false);
    }

    /**
     * {@link AtomicFiles#deleteTree(Path)} through a byte seam: every entry below the name, deepest first,
     * then the name itself; symbolic links are removed, never followed.
     *
     * @param files the seam
     * @param name the folder (or file) to remove
     * @return whether anything existed
     * @throws StorageException {@code "Could not delete folder: <path>"} naming the entry that failed
     */
    public static boolean deleteTree(StoreFiles files, String name) {
        try {
            java.util.Optional<StoreFiles.Entry> entry = files.stat(name);
            if (entry.isEmpty()) {
                return false;
            }
            if (entry.get().kind() == StoreFiles.Entry.Kind.DIRECTORY) {
                for (String child : files.list(name)) {
                    deleteTree(files, name.isEmpty() ? child : name + "/" + child);
                }
            }
            files.delete(name);
        } catch (NoSuchFileException gone) {
            // removed meanwhile
        } catch (IOException e) {
            throw new StorageException("Could not delete folder: " + files.path(name), e);
        }
        return true;
    }

}
