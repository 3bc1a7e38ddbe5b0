package dev.storh.fs;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;

/**
 * The byte seam: the small set of operations storh's engines use to reach the bytes of a store,
 * addressed by relative names ({@code "data/0a/<id>.jsonc"}, {@code "manifest.jsonc"}) under one
 * root. {@link LocalFiles} (the local file system) is the one implementation in this module; tests
 * put a failing implementation behind it to make any write, fsync or rename fail at a chosen
 * commit point. Internal: not part of storh's public API, and it may change.
 *
 * <h2>Durability contract</h2>
 * An implementation promises, as the engines' crash safety depends on it:
 * <ul>
 *   <li>{@link Output#write} may leave the bytes in a cache; they are durable only after
 *       {@link Output#sync} returns (POSIX {@code fsync}: data and the metadata needed to read it).</li>
 *   <li>{@link #rename} replaces the target atomically: a reader (in any process, after any crash)
 *       sees the old file or the new one under the target name, never a mix or nothing. The
 *       rename itself is durable only after {@link #syncDirectory} of the target's folder returns.</li>
 *   <li>{@link #syncDirectory} makes the folder's entries durable: created, renamed and deleted
 *       names in it survive a power loss. Where the platform cannot sync a folder the call does
 *       nothing (it is then as durable as the platform allows); it fails only when asked to fail.</li>
 *   <li>{@link #append} writes after the current end; bytes of an append are durable after its
 *       {@link Output#sync}; a torn append leaves a prefix of the bytes, never other bytes.</li>
 *   <li>{@link #delete} removes a name; durable after {@link #syncDirectory} of its folder.</li>
 * </ul>
 * The composed sequences (temp write, fsync, rename, folder fsync; append and fsync) are in
 * {@link AtomicFiles}, which turns failures into {@link dev.storh.StorageException}s naming the path.
 *
 * <p>Implementations are thread-safe; an {@link Output} is used by one thread at a time. Every
 * method throws {@link IOException} (a {@link java.nio.file.NoSuchFileException} for a missing
 * name where that matters) and leaves the wording of errors to the callers.
 */
public interface StoreFiles {

    /** @return the folder (or container) the names are relative to */
    Path root();

    /**
     * @param name a relative name, {@code /}-separated
     * @return where it is, for error messages and for code not yet behind the seam
     */
    default Path path(String name) {
        return root().resolve(name);
    }

    /**
     * @param path a path below {@link #root()}, in the same (relative or absolute) form
     * @return its relative name
     */
    default String nameOf(Path path) {
        return root().relativize(path).toString();
    }

    /**
     * @param name a file
     * @return its bytes from the start; close it
     * @throws IOException {@code NoSuchFileException} when missing
     */
    InputStream open(String name) throws IOException;

    /**
     * Creates the file, or truncates it when present, for writing from the start.
     *
     * @param name a file in an existing folder
     * @return the open file; close it
     * @throws IOException when it cannot be opened
     */
    Output create(String name) throws IOException;

    /**
     * Opens the file for appending after its current end, creating it when missing.
     *
     * @param name a file in an existing folder
     * @return the open file; close it
     * @throws IOException when it cannot be opened
     */
    Output append(String name) throws IOException;

    /**
     * Renames {@code from} to {@code to} atomically, replacing {@code to} when present.
     *
     * @param from an existing file
     * @param to the new name, in the same folder or another folder under the root
     * @throws IOException when the rename did not happen ({@code to} is then unchanged)
     */
    void rename(String from, String to) throws IOException;

    /**
     * Makes the folder's entries durable (see the contract above).
     *
     * @param dir a folder name, {@code ""} for the root
     * @throws IOException only when the implementation is made to fail
     */
    void syncDirectory(String dir) throws IOException;

    /**
     * Makes every write to the file system that holds {@code name} durable at once, as
     * {@code syncfs(2)} does: the data and metadata of every file and the entries of every folder
     * on it, written by any process. Only where the platform reports a failed write-back to the
     * caller (Linux 5.8 and later); elsewhere, and in seams that cannot, nothing is done and the
     * caller syncs file by file.
     *
     * @param name an existing file or folder on the file system to sync
     * @return whether the file system was synced; {@code false} when this seam cannot (the default)
     * @throws IOException when the sync failed: some write may not be durable
     */
    default boolean syncFileSystem(String name) throws IOException {
        return false;
    }

    /**
     * @return whether every write, rename and delete of this seam is durable once it returns (blob
     *     storage), so that no fsync is ever needed: the document store then writes single records
     *     directly, each through the seam's own replace (which may compare and set), instead of
     *     through its batch journal, which exists to save fsyncs (docs/batch-journal.md);
     *     {@code false} for file systems (the default)
     */
    default boolean durableOnReturn() {
        return false;
    }

    /**
     * @param dir a folder name, {@code ""} for the root
     * @return the names of its entries (not recursive, no order promised)
     * @throws IOException {@code NoSuchFileException} when missing
     */
    List<String> list(String dir) throws IOException;

    /**
     * @param name a file
     * @throws IOException {@code NoSuchFileException} when missing
     */
    void delete(String name) throws IOException;

    /**
     * @param name the lock file, in an existing folder
     * @return a handle on the JVM-wide and inter-process lock of that file
     * @throws dev.storh.StorageException when it cannot be opened
     */
    CollectionLock lock(String name);

    /**
     * @param name a file or folder
     * @return its size, modification time and kind, empty when nothing has that name (a symbolic
     *     link is reported as what it is, not followed)
     * @throws IOException when it cannot be read
     */
    java.util.Optional<Entry> stat(String name) throws IOException;

    /**
     * @param name a file or folder
     * @return whether something has that name
     * @throws IOException when it cannot be read
     */
    default boolean exists(String name) throws IOException {
        return stat(name).isPresent();
    }

    /**
     * Creates the folder and any missing parents; nothing when it exists.
     *
     * @param dir a folder name, {@code ""} for the root
     * @throws IOException when it cannot be created (e.g. a file has the name)
     */
    void createDirectories(String dir) throws IOException;

    /**
     * @param name a file
     * @return all its bytes (one read; the default reads {@link #open(String)} to its end)
     * @throws IOException {@code NoSuchFileException} when missing
     */
    default byte[] readAll(String name) throws IOException {
        try (InputStream in = open(name)) {
            return in.readAllBytes();
        }
    }

    /**
     * {@link #readAll(String)} of a file whose size a look just before told ({@link #sizeOf} of its
     * version): a backend may then read it in fewer calls. On a local disk that is one {@code read}
     * asking one byte more than {@code sizeSeen}, a shorter answer being the file's end (as a regular
     * file reads short on a local file system only there); a file that grew since the look is read on
     * to its end. A caller that finds the bytes incomplete (a file system that reads short before the
     * end) reads again with {@link #readAll(String)}.
     *
     * @param name a file
     * @param sizeSeen its size at the last look, in bytes; negative when unknown (the plain read)
     * @return its bytes
     * @throws IOException {@code NoSuchFileException} when missing
     */
    default byte[] readAll(String name, long sizeSeen) throws IOException {
        return readAll(name);
    }

    /**
     * @param name a file
     * @return all its bytes, as {@link #readAll(String)}, or {@code null} when nothing has the name
     * @throws IOException when it exists and cannot be read
     */
    default byte[] readIfExists(String name) throws IOException {
        try {
            return readAll(name);
        } catch (NoSuchFileException absent) {
            return null;
        }
    }

    /**
     * @param name a file
     * @param offset the first byte to read, at most the file's size
     * @return its bytes from {@code offset}; close it
     * @throws IOException {@code NoSuchFileException} when missing
     */
    default InputStream open(String name, long offset) throws IOException {
        InputStream in = open(name);
        try {
            in.skipNBytes(offset);
        } catch (IOException | RuntimeException e) {
            in.close();
            throw e;
        }
        return in;
    }

    /**
     * The identity of the file that has a name now (an inode), to tell whether a handle opened
     * earlier still reaches the file behind the name.
     *
     * @param name a file
     * @return the identity, or {@code null} when the backend cannot tell files apart
     * @throws IOException {@code NoSuchFileException} when nothing has the name
     */
    default Object identity(String name) throws IOException {
        if (stat(name).isEmpty()) {
            throw new java.nio.file.NoSuchFileException(path(name).toString());
        }
        return null;
    }

    /**
     * The identity and the size of the file a name has now, in one look where the backend can (one
     * {@code stat} on a local disk): a writer checks that its open handle still reaches the file behind
     * the name and learns the file's end without asking the handle.
     *
     * @param name a file
     * @return the identity ({@code null} when the backend cannot tell files apart) and the size in bytes
     * @throws IOException {@code NoSuchFileException} when nothing has the name
     */
    default Identified identified(String name) throws IOException {
        Object key = identity(name);
        Entry entry = stat(name).orElseThrow(() -> new java.nio.file.NoSuchFileException(path(name).toString()));
        return new Identified(key, entry.size());
    }

    /**
     * {@link #stat} of a name together with its {@link #identity}, in one look where the backend can
     * (one {@code lstat} on a local disk): a folder's listing, kept while its time and identity stay
     * the same, checks both for every folder it walks.
     *
     * @param name a file or folder
     * @return its entry (a link is reported as what it is, not followed) and its identity
     *     ({@code null} when the backend cannot tell files apart, or for a link); empty when nothing has
     *     the name
     * @throws IOException when it cannot be read
     */
    default java.util.Optional<Stated> statWithIdentity(String name) throws IOException {
        java.util.Optional<Entry> entry = stat(name);
        if (entry.isEmpty()) {
            return java.util.Optional.empty();
        }
        Object key;
        try {
            key = entry.get().kind() == Entry.Kind.OTHER ? null : identity(name);
        } catch (NoSuchFileException vanished) {
            return java.util.Optional.empty();
        } catch (IOException unknown) {
            key = null; // told apart from nothing: a listing kept by identity is not reused
        }
        return java.util.Optional.of(new Stated(entry.get(), key));
    }

    /**
     * What {@link #statWithIdentity} tells of a name.
     *
     * @param entry its size, modification time and kind
     * @param key its identity, as {@link #identity} gives it; {@code null} when the backend has none
     */
    record Stated(Entry entry, Object key) {
    }

    /**
     * What {@link #identified} tells of a file.
     *
     * @param key its identity, as {@link #identity} gives it; {@code null} when the backend has none
     * @param size its size in bytes
     */
    record Identified(Object key, long size) {
    }

    /**
     * @return whether the files under the root can only be read (a read-only mount): writes would
     *     fail, so stores open for reading only; {@code false} when it cannot be told
     */
    default boolean isReadOnly() {
        return false;
    }

    /**
     * Opens a file for reads at any offset: the handle a reader keeps for many reads of one file
     * (a log's point reads, a segment scan). The default opens {@link #open(String, long)} per read;
     * the local file system keeps one read-only channel.
     *
     * @param name a file
     * @return the open file; close it
     * @throws IOException {@code NoSuchFileException} when missing or not a file
     */
    default Input openInput(String name) throws IOException {
        Entry entry = stat(name).orElse(null);
        if (entry == null || entry.kind() != Entry.Kind.FILE) {
            throw new java.nio.file.NoSuchFileException(path(name).toString());
        }
        return new Input() {
            @Override
            public int read(byte[] into, int offset, int length, long position) throws IOException {
                try (InputStream in = open(name, Math.min(position, size()))) {
                    int n = in.readNBytes(into, offset, length);
                    return n == 0 && length > 0 ? -1 : n;
                }
            }

            @Override
            public long size() throws IOException {
                return stat(name).map(Entry::size)
                        .orElseThrow(() -> new java.nio.file.NoSuchFileException(path(name).toString()));
            }

            @Override
            public void close() {
                // nothing held between reads
            }
        };
    }

    /**
     * A file open for positional reads; safe for several threads at once (no shared position).
     */
    interface Input extends Closeable {

        /**
         * @param into the buffer
         * @param offset where in it the bytes go
         * @param length at most this many bytes
         * @param position the file offset of the first byte
         * @return how many bytes were read (at least 1 when {@code length > 0}), {@code -1} at the end
         * @throws IOException when they cannot be read ({@code ClosedChannelException} after close)
         */
        int read(byte[] into, int offset, int length, long position) throws IOException;

        /**
         * @return the file's size in bytes now
         * @throws IOException when it cannot be read
         */
        long size() throws IOException;
    }

    /**
     * The version of a file: an opaque token that changes whenever its bytes are replaced or
     * appended to (an ETag on blob storage). The default derives it from {@link #stat}: size and
     * modification time, which a local file system updates on every write.
     *
     * @param name a file
     * @return its version, empty when no file has that name
     * @throws IOException when it cannot be read
     */
    default java.util.Optional<String> version(String name) throws IOException {
        return stat(name).filter(e -> e.kind() == Entry.Kind.FILE)
                .map(e -> Long.toHexString(e.size()) + "-" + Long.toHexString(e.lastModifiedMillis()));
    }

    /**
     * {@link #version} of a name that is most likely a regular file (a record a cache holds): the
     * same answer, but a seam may make the look cheaper when the file is there at the price of a
     * dearer one when it is not (a local seam: one {@code lstat} instead of two looks, an exception
     * inside when nothing has the name). The default asks {@link #version}.
     *
     * @param name a file
     * @return its version, empty when no file has that name
     * @throws IOException when it cannot be read
     */
    default java.util.Optional<String> likelyFileVersion(String name) throws IOException {
        return version(name);
    }

    /**
     * {@link #version} of a name in a folder the caller has just seen readable, most often by
     * taking the version of a file beside it (a value file's delta after the value file): the same
     * answer, but a seam may skip its check that the folder can be read when nothing has the name
     * (a local seam: one {@code stat} for an absent name instead of two, and no exception). The
     * default asks {@link #version}.
     *
     * @param name a file in a folder just seen
     * @return its version, empty when no file has that name
     * @throws IOException when it cannot be read
     */
    default java.util.Optional<String> versionInSeenFolder(String name) throws IOException {
        return version(name);
    }

    /**
     * Whether a {@link #version} of this seam names one state of one file for the whole process:
     * two equal versions, of any names and taken through any seam saying so, are the same bytes, so
     * what was decoded from them may be kept under the version and shared. Local files say so (the
     * version carries the file's device and inode besides its size and modification time in
     * nanoseconds); the default, whose versions may be ETags or bare sizes and times, does not.
     *
     * @return whether versions name file states process-wide
     */
    default boolean versionsNameFileStates() {
        return false;
    }

    /**
     * The modification time a {@link #version} carries, to tell how long a file has been left
     * alone. The default knows nothing of the versions' shapes (they may be ETags) and says so.
     *
     * @param version a value {@link #version} returned
     * @return the file's modification time then, in milliseconds since the epoch on the file
     *     system's clock (the clock {@link Entry#lastModifiedMillis()} reads), or {@code -1} when the
     *     version does not carry one
     */
    default long modifiedMillis(String version) {
        return -1;
    }

    /**
     * A reader of one folder's modification time, made once by {@link #folderTime} and read by the
     * checks that the folder has not changed since a moment (a writers folder, a log's segments).
     */
    @FunctionalInterface
    interface FolderTime {

        /**
         * @return the folder's modification time now, in milliseconds since the epoch on the file
         *     system's clock, or -1 when it is missing or unreadable
         */
        long millis();
    }

    /**
     * The default reads the folder's time with one {@link #stat} per read, and answers -1 when the name
     * is not a readable folder. A seam that can look more cheaply reads it its own way: local files with
     * one {@code stat} and no objects made per read.
     *
     * @param folder a folder name under the root
     * @return a reader of the folder's modification time, to keep and read again
     */
    default FolderTime folderTime(String folder) {
        return () -> {
            try {
                return stat(folder).filter(e -> e.kind() == Entry.Kind.DIRECTORY).map(Entry::lastModifiedMillis).orElse(-1L);
            } catch (IOException | RuntimeException e) {
                return -1;
            }
        };
    }

    /**
     * @param version a version this seam returned
     * @return the file's size in bytes as the version tells it, or -1 when the version does not
     *     carry one
     */
    default long sizeOf(String version) {
        return -1;
    }

    /**
     * Compare-and-set: replaces the whole file atomically (readers see the old bytes or the new
     * ones) only when its version is still {@code expectedVersion}, or creates it only when it does
     * not exist ({@code expectedVersion == null}). On blob storage this is one conditional upload
     * ({@code If-Match} / {@code If-None-Match: *}) and holds across processes and machines. The
     * default (temp file, fsync, version check, rename, folder fsync) is atomic for readers, but the
     * check and the rename are two steps: writers of other processes must be ordered by the
     * collection's {@link #lock} around it.
     *
     * @param name a file in an existing folder
     * @param bytes its new content
     * @param expectedVersion the {@link #version} read before, {@code null} for "must not exist"
     * @return the file's new version
     * @throws dev.storh.VersionConflictException when the version did not match (nothing written)
     * @throws IOException when it cannot be written
     */
    default String writeIfVersion(String name, byte[] bytes, String expectedVersion) throws IOException {
        return writeIfVersionByRename(this, name, bytes, expectedVersion);
    }

    /**
     * The default {@link #writeIfVersion}, built from a seam's own operations (temp file, fsync,
     * version check, rename, folder fsync): for a decorator that must run those operations through
     * itself rather than forward the whole write to the seam below.
     *
     * @param files the seam whose create, version, rename, delete and folder fsync are used
     * @param name a file in an existing folder
     * @param bytes its new content
     * @param expectedVersion the {@link #version} read before, {@code null} for "must not exist"
     * @return the file's new version
     * @throws dev.storh.VersionConflictException when the version did not match (nothing written)
     * @throws IOException when it cannot be written
     */
    static String writeIfVersionByRename(StoreFiles files, String name, byte[] bytes, String expectedVersion)
            throws IOException {
        int slash = name.lastIndexOf('/');
        String dir = slash < 0 ? "" : name.substring(0, slash);
        String temp = (slash < 0 ? "" : dir + "/") + "." + name.substring(slash + 1) + ".cas-"
                + Long.toHexString(java.util.concurrent.ThreadLocalRandom.current().nextLong()) + ".tmp";
        try {
            try (Output out = files.create(temp)) {
                out.write(bytes);
                out.sync();
            }
            String actual = files.version(name).orElse(null);
            if (!java.util.Objects.equals(actual, expectedVersion)) {
                throw new dev.storh.VersionConflictException(name, expectedVersion);
            }
            files.rename(temp, name);
        } catch (IOException | RuntimeException e) {
            try {
                files.delete(temp);
            } catch (IOException | RuntimeException ignored) {
                // nothing to remove, or a leftover temp that the engines' cleanup removes later
            }
            throw e;
        }
        files.syncDirectory(dir);
        return files.version(name).orElseThrow(() -> new java.nio.file.NoSuchFileException(name));
    }

    /**
     * Exchanges two folders (or files) in one atomic step, where the backend can: a reader in any
     * process finds each name holding the old tree or the new one, never nothing. The default
     * cannot and says so; callers then fall back to two {@link #rename}s.
     *
     * @param a an existing name
     * @param b another existing name, in the same folder
     * @return true when the two were exchanged (durable after {@link #syncDirectory} of their
     *     folder); false when nothing changed because atomic exchange is not available
     * @throws IOException only when the implementation is made to fail
     */
    default boolean exchange(String a, String b) throws IOException {
        return false;
    }

    /**
     * What {@link #stat} knows about a name.
     *
     * @param size bytes (0 for a folder)
     * @param lastModifiedMillis modification time, milliseconds since the epoch
     * @param kind file, folder or other (a symbolic link, a device)
     */
    record Entry(long size, long lastModifiedMillis, Kind kind) {

        /** What a name is. */
        public enum Kind {
            /** A regular file. */
            FILE,
            /** A folder. */
            DIRECTORY,
            /** Anything else: a symbolic link, a socket, a device. */
            OTHER
        }
    }

    /**
     * An open file to write: bytes in order, then {@link #sync}, then {@link #close}. Bytes go
     * after the current end (for a created file: from the start).
     */
    interface Output extends Closeable {

        /**
         * @param bytes all of them are written (a short write is retried)
         * @throws IOException when they cannot be written
         */
        default void write(byte[] bytes) throws IOException {
            write(bytes, 0, bytes.length);
        }

        /**
         * @param bytes a buffer
         * @param offset where the bytes to write start in it
         * @param length how many to write, all of them (a short write is retried)
         * @throws IOException when they cannot be written
         */
        void write(byte[] bytes, int offset, int length) throws IOException;

        /**
         * Makes the written bytes and the file's metadata durable ({@code fsync}).
         *
         * @throws IOException when they cannot be synced
         */
        void sync() throws IOException;

        /**
         * Makes the written bytes durable, and the metadata needed to read them ({@code fdatasync}).
         *
         * @throws IOException when they cannot be synced
         */
        void syncData() throws IOException;

        /**
         * @return the file's size in bytes now
         * @throws IOException when it cannot be read
         */
        long size() throws IOException;

        /**
         * Cuts the file to {@code size} bytes (a torn tail of a failed append); later bytes go after it.
         *
         * @param size the new size, at most the current one
         * @throws IOException when it cannot be cut
         */
        void truncate(long size) throws IOException;
    }
}
