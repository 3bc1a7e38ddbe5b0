package dev.storh.fs;

import dev.storh.StorageException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Keeps file access inside a store's folder: storh never reads, writes or deletes through a
 * symbolic link below a collection (or log, or queue) folder, since a link can point anywhere
 * outside it. The checks use {@code lstat}, so they cost one system call per path component and
 * never follow what they check. Stateless and thread-safe.
 */
public final class SafePaths {

    private SafePaths() {
    }

    /**
     * Checks that no existing component of {@code path} below {@code base} is a symbolic link
     * ({@code base} itself and its parents are the operator's choice and are not checked).
     * Components that do not exist end the check: nothing below them exists either.
     *
     * @param base the store's folder
     * @param path a path inside it
     * @throws StorageException {@code "Refusing to follow a symbolic link inside the store: <link>"}
     *     naming the link, or when {@code path} is not below {@code base}
     */
    public static void requireNoLinks(Path base, Path path) {
        Path b = base.toAbsolutePath().normalize();
        Path p = path.toAbsolutePath().normalize();
        if (!p.startsWith(b)) {
            throw new StorageException("Path " + path + " is outside the store folder " + base);
        }
        Path current = b;
        for (Path part : b.relativize(p)) {
            if (part.toString().isEmpty()) {
                continue;
            }
            current = current.resolve(part);
            BasicFileAttributes a;
            try {
                a = Files.readAttributes(current, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            } catch (NoSuchFileException missing) {
                return;
            } catch (IOException e) {
                throw new StorageException("Could not check storage path: " + current, e);
            }
            if (a.isSymbolicLink()) {
                throw linkRefused(current);
            }
        }
    }

    /**
     * {@link #requireNoLinks(Path, Path)} through a byte seam: no existing component of the name
     * (the seam's root is not checked) may be a symbolic link, nor anything else that is neither a
     * file nor a folder.
     *
     * @param files the store's seam
     * @param name a name below its root, {@code ""} for the root
     * @throws StorageException {@code "Refusing to follow a symbolic link inside the store: <link>"}
     *     naming the link
     */
    public static void requireNoLinks(StoreFiles files, String name) {
        requireNoLinks(files, java.util.List.of(name));
    }

    /**
     * Looks at the last component of a name only, for a caller that has checked its parents (under
     * the same hold of a write lock): one {@code lstat}.
     *
     * @param files the store's seam
     * @param name a name below its root
     * @return what is there, empty when nothing is
     * @throws StorageException {@code "Refusing to follow a symbolic link inside the store: <link>"}
     *     when it is neither a file nor a folder, {@code "Could not check storage path: <path>"}
     */
    public static java.util.Optional<StoreFiles.Entry> requireNoLinkAt(StoreFiles files, String name) {
        java.util.Optional<StoreFiles.Entry> entry;
        try {
            entry = files.stat(name);
        } catch (IOException e) {
            throw new StorageException("Could not check storage path: " + files.path(name), e);
        }
        if (entry.isPresent() && entry.get().kind() == StoreFiles.Entry.Kind.OTHER) {
            throw linkRefused(files.path(name));
        }
        return entry;
    }

    /**
     * {@link #requireNoLinks(StoreFiles, String)} for several names at once, each folder they
     * share looked at once (one {@code lstat} per distinct component).
     *
     * @param files the store's seam
     * @param names names below its root
     * @return the components found absent (each ends the check of its names), in the order met;
     *     empty when every name exists
     * @throws StorageException as {@link #requireNoLinks(StoreFiles, String)}
     */
    public static java.util.List<String> requireNoLinks(StoreFiles files, java.util.List<String> names) {
        java.util.List<String> checked = new java.util.ArrayList<>(names.size() + 2);
        java.util.List<String> absent = java.util.List.of();
        for (String name : names) {
            String current = "";
            for (String part : name.split("/")) {
                if (part.isEmpty()) {
                    continue;
                }
                current = current.isEmpty() ? part : current + "/" + part;
                if (checked.contains(current)) {
                    continue;
                }
                java.util.Optional<StoreFiles.Entry> entry;
                try {
                    entry = files.stat(current);
                } catch (IOException e) {
                    throw new StorageException("Could not check storage path: " + files.path(current), e);
                }
                if (entry.isEmpty()) {
                    if (absent.isEmpty()) {
                        absent = new java.util.ArrayList<>(2);
                    }
                    if (!absent.contains(current)) {
                        absent.add(current);
                    }
                    break; // nothing below it exists either
                }
                if (entry.get().kind() == StoreFiles.Entry.Kind.OTHER) {
                    throw linkRefused(files.path(current));
                }
                checked.add(current);
            }
        }
        return absent;
    }

    /**
     * @param link the symbolic link found
     * @return the error refusing it, naming the link and where it points when readable
     */
    public static StorageException linkRefused(Path link) {
        return new StorageException("Refusing to follow a symbolic link inside the store: " + describeLink(link)
                + " (storh never reads, writes or deletes through links)");
    }

    /**
     * @param link a symbolic link
     * @return {@code <link> -> <target>}, or just the link when its target cannot be read
     */
    public static String describeLink(Path link) {
        try {
            return link + " -> " + Files.readSymbolicLink(link);
        } catch (IOException | UnsupportedOperationException e) {
            return link.toString();
        }
    }
}
