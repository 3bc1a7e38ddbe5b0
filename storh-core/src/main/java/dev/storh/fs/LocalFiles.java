package dev.storh.fs;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The byte seam over the local file system: names resolve under {@link #root()}, bytes go through
 * {@link FileChannel}s, {@code fsync} is {@link FileChannel#force(boolean) force(true)}, renames are
 * {@code ATOMIC_MOVE}, folder syncs open the folder read-only and force it (skipped silently where
 * the platform cannot). Reads and writes do not follow a symbolic link in the last name component (a
 * link there fails with an {@link IOException}: nothing behind it is read or written). Stateless
 * apart from its root; thread-safe.
 */
public final class LocalFiles implements StoreFiles {

    /** Files this size or larger are read as {@link #readAll(String)} reads them. */
    private static final long MAX_SIZED_READ = 64L << 20;

    private static final LocalFiles UNROOTED = new LocalFiles(Path.of(""));

    private final Path root;
    /** The root's text when {@link #nameOf} may read names off a path's text, else {@code null}. */
    private final String rootText;

    private LocalFiles(Path root) {
        this.root = root;
        String text = root.toString();
        this.rootText = text.isEmpty() || text.equals("/") || hasDotElement(text) ? null : text;
    }

    /**
     * @param root the folder the names are relative to
     * @return the local seam under it
     */
    public static LocalFiles at(Path root) {
        return new LocalFiles(root);
    }

    /** @return a seam whose names are plain paths (absolute, or relative to the working folder) */
    static LocalFiles unrooted() {
        return UNROOTED;
    }

    @Override
    public Path root() {
        return root;
    }

    @Override
    public String nameOf(Path path) {
        if (this == UNROOTED) {
            return path.toString();
        }
        String under = rootText == null ? null : plainNameBelow(rootText, path.toString());
        return under != null ? under : StoreFiles.super.nameOf(path);
    }

    /**
     * The relative name of a path below the root read off its text, as {@code relativize} gives it,
     * when neither holds a {@code .} or {@code ..} element (a path's text never holds {@code //} or
     * a trailing {@code /}); {@code null} when that shortcut does not apply.
     */
    private static String plainNameBelow(String rootText, String pathText) {
        if (pathText.equals(rootText)) {
            return "";
        }
        if (pathText.length() <= rootText.length() + 1 || !pathText.startsWith(rootText)
                || pathText.charAt(rootText.length()) != '/') {
            return null;
        }
        String rest = pathText.substring(rootText.length() + 1);
        return hasDotElement(rest) ? null : rest;
    }

    /** @return whether a {@code /}-separated text has an element that is {@code .} or {@code ..} */
    private static boolean hasDotElement(String text) {
        if (text.indexOf("./") < 0 && !text.endsWith(".")) {
            return false; // an element "." or ".." is followed by "/" or ends the text
        }
        int start = 0;
        while (start <= text.length()) {
            int end = text.indexOf('/', start);
            if (end < 0) {
                end = text.length();
            }
            int length = end - start;
            if (length == 1 && text.charAt(start) == '.' || length == 2 && text.startsWith("..", start)) {
                return true;
            }
            start = end + 1;
        }
        return false;
    }

    @Override
    public InputStream open(String name) throws IOException {
        return Files.newInputStream(path(name), StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
    }

    /**
     * One {@code read} of {@code sizeSeen + 1} bytes: an answer of {@code sizeSeen} bytes or fewer is the
     * file's end (a regular file on a local file system reads short only there), so the read that
     * would only confirm the end is saved; a file that grew since the look is read on to its end.
     */
    @Override
    public byte[] readAll(String name, long sizeSeen) throws IOException {
        if (sizeSeen < 0 || sizeSeen >= MAX_SIZED_READ) {
            return readAll(name);
        }
        try (FileChannel channel = FileChannel.open(path(name), StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
            ByteBuffer buffer = ByteBuffer.allocate((int) sizeSeen + 1);
            int n = channel.read(buffer);
            if (n < 0) {
                return new byte[0];
            }
            if (buffer.hasRemaining()) {
                return java.util.Arrays.copyOf(buffer.array(), n);
            }
            java.io.ByteArrayOutputStream all = new java.io.ByteArrayOutputStream(buffer.capacity() * 2);
            all.write(buffer.array(), 0, n);
            all.write(java.nio.channels.Channels.newInputStream(channel).readAllBytes());
            return all.toByteArray();
        }
    }

    @Override
    public Output create(String name) throws IOException {
        return output(path(name), StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING, LinkOption.NOFOLLOW_LINKS);
    }

    @Override
    public Output append(String name) throws IOException {
        return output(path(name), StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND,
                LinkOption.NOFOLLOW_LINKS);
    }

    @Override
    public void rename(String from, String to) throws IOException {
        Files.move(path(from), path(to), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    @Override
    public void syncDirectory(String dir) {
        try (FileChannel channel = FileChannel.open(path(dir), StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException | RuntimeException ignored) {
            // Some platforms cannot open or sync folders; a rename itself is still atomic.
        }
    }

    @Override
    public boolean syncFileSystem(String name) throws IOException {
        return FileSystemSync.sync(path(name));
    }

    @Override
    public java.util.Optional<Entry> stat(String name) throws IOException {
        return attributes(name).map(LocalFiles::entryOf);
    }

    /** One {@code lstat}: the entry and, unless the name is a link or another special file, its inode. */
    @Override
    public java.util.Optional<Stated> statWithIdentity(String name) throws IOException {
        return attributes(name).map(attrs -> {
            Entry entry = entryOf(attrs);
            return new Stated(entry, entry.kind() == Entry.Kind.OTHER ? null : attrs.fileKey());
        });
    }

    private static Entry entryOf(java.nio.file.attribute.BasicFileAttributes attrs) {
        return new Entry(attrs.isDirectory() ? 0 : attrs.size(), attrs.lastModifiedTime().toMillis(),
                attrs.isRegularFile() ? Entry.Kind.FILE : attrs.isDirectory() ? Entry.Kind.DIRECTORY : Entry.Kind.OTHER);
    }

    /** @return the name's own attributes (a link is not followed), empty when nothing has the name */
    private java.util.Optional<java.nio.file.attribute.BasicFileAttributes> attributes(String name) throws IOException {
        return attributes(path(name));
    }

    private static java.util.Optional<java.nio.file.attribute.BasicFileAttributes> attributes(Path path) throws IOException {
        try {
            return java.util.Optional.of(Files.readAttributes(path,
                    java.nio.file.attribute.BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS));
        } catch (java.nio.file.NoSuchFileException e) {
            return java.util.Optional.empty();
        }
    }

    @Override
    public void createDirectories(String dir) throws IOException {
        Files.createDirectories(path(dir));
    }

    @Override
    public InputStream open(String name, long offset) throws IOException {
        FileChannel channel = FileChannel.open(path(name), StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
        try {
            channel.position(offset);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
        return java.nio.channels.Channels.newInputStream(channel);
    }

    /**
     * Size, modification time to the nanosecond and the file's identity (inode): a rewrite by
     * rename changes the identity even within one clock tick.
     */
    @Override
    public java.util.Optional<String> version(String name) throws IOException {
        Path path = path(name);
        if (!path.toFile().exists() && path.getParent() != null && path.getParent().toFile().isDirectory()) {
            // Nothing there in a readable folder, or a link to nothing: no regular file either way.
            // java.io's looks throw no exception, so an absent name (a value file's delta, most often)
            // costs two plain stats instead of a NoSuchFileException; other failures take the path below.
            return java.util.Optional.empty();
        }
        return attributes(path).filter(java.nio.file.attribute.BasicFileAttributes::isRegularFile).map(LocalFiles::versionOf);
    }

    /**
     * {@link #version} in one plain {@code stat} when nothing has the name (its folder was just
     * seen, so a failed look means no file, or a link to nothing: no regular file either way), two
     * when something has.
     */
    @Override
    public java.util.Optional<String> versionInSeenFolder(String name) throws IOException {
        Path path = path(name);
        if (!path.toFile().exists()) {
            return java.util.Optional.empty();
        }
        return attributes(path).filter(java.nio.file.attribute.BasicFileAttributes::isRegularFile).map(LocalFiles::versionOf);
    }

    /** {@link #version} in one {@code lstat} when the file is there (a NoSuchFileException inside when it is not). */
    @Override
    public java.util.Optional<String> likelyFileVersion(String name) throws IOException {
        return attributes(path(name)).filter(java.nio.file.attribute.BasicFileAttributes::isRegularFile)
                .map(LocalFiles::versionOf);
    }

    /** @return true: a version carries the file's device and inode, its size and its modification time to the nanosecond */
    @Override
    public boolean versionsNameFileStates() {
        return true;
    }

    private static String versionOf(java.nio.file.attribute.BasicFileAttributes a) {
        return Long.toHexString(a.size()) + "-"
                + Long.toHexString(a.lastModifiedTime().to(java.util.concurrent.TimeUnit.NANOSECONDS)) + "-" + a.fileKey();
    }

    /** Reads the size back out of a {@link #version} of this seam: its first field, in hex. */
    @Override
    public long sizeOf(String version) {
        int first = version.indexOf('-');
        if (first <= 0) {
            return -1;
        }
        try {
            return Long.parseUnsignedLong(version, 0, first, 16);
        } catch (NumberFormatException notOurs) {
            return -1;
        }
    }

    /** Reads the time back out of a {@link #version} of this seam: its second field, nanoseconds in hex. */
    @Override
    public long modifiedMillis(String version) {
        int first = version.indexOf('-');
        int second = first < 0 ? -1 : version.indexOf('-', first + 1);
        if (second < 0) {
            return -1;
        }
        try {
            return Math.floorDiv(Long.parseUnsignedLong(version, first + 1, second, 16), 1_000_000L);
        } catch (NumberFormatException notOurs) {
            return -1;
        }
    }

    /**
     * One {@code stat} per read through {@link java.io.File#lastModified()}, millisecond precision and no
     * objects made, as cheap as a look at the disk can be; it follows a link, does not tell a folder from
     * a file, and reads a time of exactly 0 as -1 (so it is never trusted).
     */
    @Override
    public FolderTime folderTime(String folder) {
        java.io.File local = path(folder).toFile();
        return () -> {
            long t = local.lastModified();
            return t == 0 ? -1 : t;
        };
    }

    @Override
    public Object identity(String name) throws IOException {
        return Files.readAttributes(path(name), java.nio.file.attribute.BasicFileAttributes.class).fileKey();
    }

    @Override
    public Identified identified(String name) throws IOException {
        java.nio.file.attribute.BasicFileAttributes attrs =
                Files.readAttributes(path(name), java.nio.file.attribute.BasicFileAttributes.class);
        return new Identified(attrs.fileKey(), attrs.size());
    }

    @Override
    public Input openInput(String name) throws IOException {
        return new ChannelFile(FileChannel.open(path(name), StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS));
    }

    @Override
    public boolean isReadOnly() {
        return Files.isDirectory(root) && ReadOnlyFileSystem.isReadOnly(root);
    }

    /**
     * {@inheritDoc} Through {@code opendir(3)} ({@link java.io.File#list()}: five system calls, no
     * {@code Path} per name); when that fails, through a directory stream, which says why.
     */
    @Override
    public List<String> list(String dir) throws IOException {
        Path folder = path(dir);
        if (folder.getFileSystem() == java.nio.file.FileSystems.getDefault()) {
            // a directory stream takes nine system calls (it also dups the descriptor and sets its
            // flags); java.io says nothing of why it failed, so a failure is listed again below
            String[] names = folder.toFile().list();
            if (names != null) {
                return new ArrayList<>(java.util.Arrays.asList(names));
            }
        }
        List<String> names = new ArrayList<>();
        try (DirectoryStream<Path> children = Files.newDirectoryStream(folder)) {
            children.forEach(c -> names.add(c.getFileName().toString()));
        }
        return names;
    }

    @Override
    public void delete(String name) throws IOException {
        Path p = path(name);
        // Files.delete looks at the name before it unlinks it (file or folder); remove(3) unlinks
        // first and removes a folder only when that fails. On a failure Files.delete says why.
        if (p.getFileSystem() != java.nio.file.FileSystems.getDefault() || !p.toFile().delete()) {
            Files.delete(p);
        }
    }

    /** Linux {@code renameat2(RENAME_EXCHANGE)}; false elsewhere (see {@link DirectoryExchange}). */
    @Override
    public boolean exchange(String a, String b) {
        return DirectoryExchange.exchange(path(a), path(b));
    }

    @Override
    public CollectionLock lock(String name) {
        return CollectionLock.open(path(name));
    }

    private static Output output(Path file, OpenOption... options) throws IOException {
        return new ChannelFile(FileChannel.open(file, options));
    }

    /**
     * One open file channel: read at given positions as an {@link Input}, or written at its
     * position as an {@link Output} (at the end when opened for appending). {@code sync} is
     * {@code force(true)}, {@code syncData} {@code force(false)}.
     */
    private static final class ChannelFile implements Input, Output {
        private final FileChannel channel;

        ChannelFile(FileChannel channel) {
            this.channel = channel;
        }

        @Override
        public int read(byte[] into, int offset, int length, long position) throws IOException {
            return channel.read(ByteBuffer.wrap(into, offset, length), position);
        }

        @Override
        public void write(byte[] bytes, int offset, int length) throws IOException {
            ByteBuffer buffer = ByteBuffer.wrap(bytes, offset, length);
            while (buffer.hasRemaining()) {
                if (channel.write(buffer) <= 0 && buffer.hasRemaining()) {
                    throw new IOException("write made no progress");
                }
            }
        }

        @Override
        public void sync() throws IOException {
            channel.force(true);
        }

        @Override
        public void syncData() throws IOException {
            channel.force(false);
        }

        @Override
        public void truncate(long size) throws IOException {
            channel.truncate(size);
        }

        @Override
        public long size() throws IOException {
            return channel.size();
        }

        @Override
        public void close() throws IOException {
            channel.close();
        }
    }
}
