package dev.storh.reliability;

import dev.storh.fs.CollectionLock;
import dev.storh.fs.ForwardingOutput;
import dev.storh.fs.LocalFiles;
import dev.storh.fs.StoreFiles;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.IntSupplier;
import java.util.stream.Stream;

/**
 * A power-cut simulator behind the byte seam, in the manner of SQLite's crash-test VFS. Every
 * operation goes through to the real files under one folder (so the engines run as usual), and a
 * model beside them remembers what has "reached the disk": a file's bytes as of its last
 * {@code sync}, a folder's entries (created, renamed, deleted names) as of its last
 * {@code syncDirectory}. Before a chosen mutation (a write, sync, rename, folder sync, delete,
 * mkdir) it takes a {@link Snapshot} of that durable state: the tree a machine would find after a
 * power cut at that moment. A snapshot may tear each unsynced file: a prefix of its unsynced writes
 * kept, the last of them cut at a 512-byte boundary of the file.
 *
 * <p>Anything that changed the real files without the seam (a file created, written, renamed or
 * deleted by other means) cannot be simulated: it is taken over as durable where it is found and
 * listed in {@link #bypasses()}, with ids and hex names replaced by placeholders. Thread-safe:
 * every mutation and every snapshot is done under one lock.
 */
final class PowerCutDisk {

    /** Sector size at which a torn write is cut. */
    static final int SECTOR = 512;

    private final Path top;
    private final Dir root = new Dir();
    private final Random rnd;
    private final double cutChance;
    private final int maxCuts;
    private final double tearChance;
    private final IntSupplier ledgerSize;
    private final List<Snapshot> snapshots = new ArrayList<>();
    private final Set<String> bypasses = new TreeSet<>();
    private long mutations;
    /** Whether the seam offers {@code syncfs} (even seeds), so both ways of retiring the batch journal are cut. */
    private final boolean syncFileSystems;

    /**
     * @param top the folder the stores live under (scanned now: what is there counts as durable)
     * @param seed decides the cut points and the tearing
     * @param cutChance the chance that a mutation gets a snapshot before it
     * @param maxCuts the most snapshots to take
     * @param tearChance the chance that a snapshot tears the unsynced writes
     * @param ledgerSize how many workload lines were written, recorded in each snapshot
     */
    PowerCutDisk(Path top, long seed, double cutChance, int maxCuts, double tearChance, IntSupplier ledgerSize) {
        this.top = top.toAbsolutePath().normalize();
        this.rnd = new Random(seed);
        this.cutChance = cutChance;
        this.maxCuts = maxCuts;
        this.tearChance = tearChance;
        this.ledgerSize = ledgerSize;
        this.syncFileSystems = (seed & 1) == 0;
        adopt(root, this.top, true);
    }

    /** What a power cut before mutation {@code mutation} leaves: file bytes and folders, by relative name. */
    record Snapshot(long mutation, String before, boolean torn, int ledgerLines, Map<String, byte[]> files,
            List<String> dirs) {

        /** Writes the snapshot's tree into an empty folder. */
        void materialize(Path into) throws IOException {
            Files.createDirectories(into);
            for (String d : dirs) {
                Files.createDirectories(into.resolve(d));
            }
            for (Map.Entry<String, byte[]> f : files.entrySet()) {
                Files.write(into.resolve(f.getKey()), f.getValue());
            }
        }
    }

    /** @return the seam for one store folder below the top folder */
    StoreFiles files(Path folder) {
        Path abs = folder.toAbsolutePath().normalize();
        if (!abs.startsWith(top)) {
            throw new IllegalArgumentException(folder + " is not under " + top);
        }
        return new View(abs, top.relativize(abs).toString());
    }

    /** @return the snapshots taken so far, oldest first */
    synchronized List<Snapshot> snapshots() {
        return List.copyOf(snapshots);
    }

    /** @return how many mutations went through the seam */
    synchronized long mutations() {
        return mutations;
    }

    /** @return every change made to the files without the seam, as {@code "<what>: <name pattern>"} */
    synchronized Set<String> bypasses() {
        findBypasses();
        return Set.copyOf(bypasses);
    }

    // ---------------------------------------------------------------- model

    private abstract static sealed class Node permits Dir, File {
    }

    private static final class Dir extends Node {
        final Map<String, Node> current = new HashMap<>();
        Map<String, Node> durable = new HashMap<>();
    }

    private static final class File extends Node {
        byte[] durable = new byte[0];
        byte[] current = new byte[0];
        int size;
        /** Unsynced changes in order: {@code long[]{offset, -1}} + bytes for a write, {@code {size, 0}} for a cut. */
        final List<Object[]> pending = new ArrayList<>();

        void write(long offset, byte[] bytes, int from, int length) {
            int end = Math.toIntExact(offset + length);
            if (end > current.length) {
                current = Arrays.copyOf(current, Math.max(end, current.length * 2));
            }
            if (offset > size) {
                Arrays.fill(current, size, (int) offset, (byte) 0);
            }
            System.arraycopy(bytes, from, current, (int) offset, length);
            size = Math.max(size, end);
            pending.add(new Object[] {offset, Arrays.copyOfRange(bytes, from, from + length)});
        }

        void truncate(long to) {
            size = (int) Math.min(size, to);
            pending.add(new Object[] {to, null});
        }

        void sync() {
            durable = Arrays.copyOf(current, size);
            pending.clear();
        }

        /** @return the durable bytes with the first {@code keep} pending changes, the last one cut at a sector */
        byte[] torn(int keep) {
            byte[] bytes = durable;
            int len = bytes.length;
            for (int i = 0; i < keep; i++) {
                Object[] op = pending.get(i);
                long at = (Long) op[0];
                if (op[1] == null) {
                    len = (int) Math.min(len, at);
                    continue;
                }
                byte[] data = (byte[]) op[1];
                int n = data.length;
                if (i == keep - 1) {
                    long boundary = (at + n) / SECTOR * SECTOR;
                    n = (int) Math.max(0, boundary - at);
                }
                int end = (int) at + n;
                if (end > bytes.length || bytes == durable) {
                    bytes = Arrays.copyOf(bytes, Math.max(end, len));
                }
                if (at > len) {
                    Arrays.fill(bytes, len, (int) at, (byte) 0);
                }
                System.arraycopy(data, 0, bytes, (int) at, n);
                len = Math.max(len, end);
            }
            return Arrays.copyOf(bytes, len);
        }
    }

    private static void syncTree(Dir dir) {
        dir.durable = new HashMap<>(dir.current);
        for (Node n : dir.current.values()) {
            if (n instanceof Dir d) {
                syncTree(d);
            } else {
                ((File) n).sync();
            }
        }
    }

    private static String[] parts(String name) {
        return name.isEmpty() ? new String[0] : name.split("/");
    }

    private Node find(String name) {
        Node n = root;
        for (String part : parts(name)) {
            if (!(n instanceof Dir d) || (n = d.current.get(part)) == null) {
                return null;
            }
        }
        return n;
    }

    private Dir parentOf(String name) throws IOException {
        int slash = name.lastIndexOf('/');
        Node p = find(slash < 0 ? "" : name.substring(0, slash));
        if (p instanceof Dir d) {
            return d;
        }
        findBypasses();
        p = find(slash < 0 ? "" : name.substring(0, slash));
        if (p instanceof Dir d) {
            return d;
        }
        throw new IOException("power-cut model has no folder for " + name);
    }

    private static String leaf(String name) {
        return name.substring(name.lastIndexOf('/') + 1);
    }

    /** Reads a real file or folder into the model as durable. */
    private void adopt(Dir into, Path dir, boolean durable) {
        try (Stream<Path> children = Files.list(dir)) {
            for (Path c : (Iterable<Path>) children::iterator) {
                String n = c.getFileName().toString();
                Node node = adoptNode(c);
                if (node != null) {
                    into.current.put(n, node);
                    if (durable) {
                        into.durable.put(n, node);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Node adoptNode(Path c) throws IOException {
        if (Files.isDirectory(c, LinkOption.NOFOLLOW_LINKS)) {
            Dir d = new Dir();
            adopt(d, c, true);
            return d;
        }
        if (Files.isRegularFile(c, LinkOption.NOFOLLOW_LINKS)) {
            File f = new File();
            byte[] bytes = Files.readAllBytes(c);
            f.write(0, bytes, 0, bytes.length);
            f.sync();
            return f;
        }
        return null;
    }

    /** Compares the real tree with the model's current one; takes over (as durable) and lists every difference. */
    private void findBypasses() {
        compare(root, top, "");
    }

    private void compare(Dir model, Path real, String prefix) {
        Map<String, Path> onDisk = new TreeMap<>();
        try (Stream<Path> children = Files.list(real)) {
            children.forEach(c -> onDisk.put(c.getFileName().toString(), c));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (String gone : new ArrayList<>(model.current.keySet())) {
            if (!onDisk.containsKey(gone)) {
                bypass("deleted or renamed away without the seam", prefix + gone);
                model.current.remove(gone);
                model.durable.remove(gone);
            }
        }
        onDisk.forEach((n, path) -> {
            Node node = model.current.get(n);
            try {
                boolean isDir = Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS);
                if (node == null || isDir != (node instanceof Dir)) {
                    Node adopted = adoptNode(path);
                    if (adopted != null) {
                        bypass((isDir ? "folder" : "file") + " created without the seam", prefix + n);
                        model.current.put(n, adopted);
                        model.durable.put(n, adopted);
                    }
                } else if (node instanceof Dir d) {
                    compare(d, path, prefix + n + "/");
                } else if (node instanceof File f && Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS)) {
                    byte[] bytes = Files.readAllBytes(path);
                    if (!Arrays.equals(bytes, 0, bytes.length, f.current, 0, f.size)) {
                        bypass("written without the seam", prefix + n);
                        f.size = 0;
                        f.write(0, bytes, 0, bytes.length);
                        f.sync();
                    }
                }
            } catch (IOException e) {
                // vanished while looking (another thread of the engine, outside the seam): next time
            }
        });
    }

    private void bypass(String what, String name) {
        bypasses.add(what + ": " + pattern(name));
    }

    /** @return the name with ids, hex runs, buckets and numbers replaced by placeholders */
    static String pattern(String name) {
        return name.replaceAll("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "<id>")
                .replaceAll("(?<![0-9a-z])(?=[0-9a-f]*[0-9])[0-9a-f]{6,}(?![0-9a-z])", "<hex>")
                .replaceAll("(^|/)[0-9a-f]{2}(?=/|$)", "$1<xx>")
                .replaceAll("(?<=[./-]|^)[0-9]+(?=[.-]|$)", "<n>");
    }

    /** Called under the lock before each mutation: maybe takes a snapshot. */
    private void mutation(String what, String name) {
        mutations++;
        if (snapshots.size() < maxCuts && rnd.nextDouble() < cutChance) {
            findBypasses();
            boolean tear = rnd.nextDouble() < tearChance;
            Map<String, byte[]> files = new LinkedHashMap<>();
            List<String> dirs = new ArrayList<>();
            collect(root, "", tear, files, dirs);
            snapshots.add(new Snapshot(mutations, what + " " + name, tear, ledgerSize.getAsInt(), files, dirs));
        }
    }

    private void collect(Dir dir, String prefix, boolean tear, Map<String, byte[]> files, List<String> dirs) {
        for (Map.Entry<String, Node> e : new TreeMap<>(dir.durable).entrySet()) {
            String name = prefix + e.getKey();
            if (e.getValue() instanceof Dir d) {
                dirs.add(name);
                collect(d, name + "/", tear, files, dirs);
            } else {
                File f = (File) e.getValue();
                files.put(name, tear && !f.pending.isEmpty() ? f.torn(1 + rnd.nextInt(f.pending.size())) : f.durable);
            }
        }
    }

    // ---------------------------------------------------------------- seam

    private final class View implements StoreFiles {
        private final LocalFiles local;
        private final String prefix;

        View(Path folder, String prefix) {
            this.local = LocalFiles.at(folder);
            this.prefix = prefix;
        }

        private String full(String name) {
            String n = Path.of(prefix, name).normalize().toString();
            if (n.startsWith("..")) {
                throw new IllegalArgumentException(name + " leaves the simulated disk");
            }
            return n;
        }

        @Override
        public Path root() {
            return local.root();
        }

        @Override
        public InputStream open(String name) throws IOException {
            return local.open(name);
        }

        @Override
        public InputStream open(String name, long offset) throws IOException {
            return local.open(name, offset);
        }

        @Override
        public List<String> list(String dir) throws IOException {
            return local.list(dir);
        }

        @Override
        public Optional<Entry> stat(String name) throws IOException {
            return local.stat(name);
        }

        @Override
        public Output create(String name) throws IOException {
            return open(name, false);
        }

        @Override
        public Output append(String name) throws IOException {
            return open(name, true);
        }

        private Output open(String name, boolean append) throws IOException {
            String n = full(name);
            synchronized (PowerCutDisk.this) {
                mutation(append ? "open-append" : "create", n);
                Output out = append ? local.append(name) : local.create(name);
                Node node = find(n);
                File f;
                if (node instanceof File existing) {
                    f = existing;
                    if (!append) {
                        f.truncate(0);
                    }
                } else {
                    f = new File();
                    parentOf(n).current.put(leaf(n), f);
                }
                return new TrackedOutput(out, f, n, append);
            }
        }

        @Override
        public void rename(String from, String to) throws IOException {
            String f = full(from);
            String t = full(to);
            synchronized (PowerCutDisk.this) {
                mutation("rename", f + " -> " + t);
                if (find(f) == null) {
                    findBypasses();
                }
                Dir fromDir = parentOf(f);
                Dir toDir = parentOf(t);
                local.rename(from, to);
                Node node = fromDir.current.remove(leaf(f));
                if (node != null) {
                    toDir.current.put(leaf(t), node);
                }
            }
        }

        /** Models {@code syncfs(2)} for even seeds (every file and folder durable at once); odd seeds sync file by file. */
        @Override
        public boolean syncFileSystem(String name) {
            if (!syncFileSystems) {
                return false;
            }
            synchronized (PowerCutDisk.this) {
                mutation("syncFileSystem", full(name));
                syncTree(root);
            }
            return true;
        }

        @Override
        public void syncDirectory(String dir) throws IOException {
            String d = full(dir);
            synchronized (PowerCutDisk.this) {
                mutation("syncDirectory", d);
                local.syncDirectory(dir);
                Node node = find(d);
                if (node == null) {
                    findBypasses();
                    node = find(d);
                }
                if (node instanceof Dir folder) {
                    folder.durable = new HashMap<>(folder.current);
                }
            }
        }

        @Override
        public void delete(String name) throws IOException {
            String n = full(name);
            synchronized (PowerCutDisk.this) {
                mutation("delete", n);
                Dir parent = parentOf(n);
                local.delete(name);
                parent.current.remove(leaf(n));
            }
        }

        @Override
        public void createDirectories(String dir) throws IOException {
            String d = full(dir);
            synchronized (PowerCutDisk.this) {
                mutation("createDirectories", d);
                local.createDirectories(dir);
                Dir at = root;
                for (String part : parts(d)) {
                    Node next = at.current.get(part);
                    if (!(next instanceof Dir)) {
                        next = new Dir();
                        at.current.put(part, next);
                    }
                    at = (Dir) next;
                }
            }
        }

        @Override
        public CollectionLock lock(String name) {
            String n = full(name);
            synchronized (PowerCutDisk.this) {
                CollectionLock lock = local.lock(name);
                if (find(n) == null) {
                    try {
                        parentOf(n).current.put(leaf(n), new File());
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }
                return lock;
            }
        }
    }

    private final class TrackedOutput extends ForwardingOutput {
        private final File file;
        private final String name;
        private final boolean append;
        private long position;

        TrackedOutput(StoreFiles.Output out, File file, String name, boolean append) {
            super(out);
            this.file = file;
            this.name = name;
            this.append = append;
        }

        @Override
        public void write(byte[] bytes, int offset, int length) throws IOException {
            synchronized (PowerCutDisk.this) {
                mutation("write", name);
                out.write(bytes, offset, length);
                long at = append ? file.size : position;
                file.write(at, bytes, offset, length);
                position = at + length;
            }
        }

        @Override
        public void sync() throws IOException {
            synchronized (PowerCutDisk.this) {
                mutation("sync", name);
                out.sync();
                file.sync();
            }
        }

        @Override
        public void syncData() throws IOException {
            sync();
        }

        @Override
        public void truncate(long size) throws IOException {
            synchronized (PowerCutDisk.this) {
                mutation("truncate", name);
                out.truncate(size);
                file.truncate(size);
                position = Math.min(position, size);
            }
        }
    }
}
