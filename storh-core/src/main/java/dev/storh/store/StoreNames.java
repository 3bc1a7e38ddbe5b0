package dev.storh.store;

import java.nio.file.Path;

import dev.storh.StorageException;

/**
 * The name rules every engine applies before it touches a folder: a store name is one folder name
 * (or, for a log, folder names separated by {@code /}) under the root, and it never resolves outside
 * the root. Names are not sanitised here (that is {@link dev.storh.StorageRoot}'s job for
 * namespaces): a bad name is refused with a {@link StorageException} that quotes it.
 */
public final class StoreNames {

    private StoreNames() {
    }

    /**
     * @param root the storage root
     * @param kind what the name names, for the message ({@code "collection"}, {@code "queue"})
     * @param name one folder name: not empty, not {@code .} or {@code ..}, no {@code /}, {@code \} or NUL
     * @return {@code root/name}, absolute and normalised
     * @throws StorageException {@code Invalid <kind> name: "<name>" …} when the name is refused
     */
    public static Path folder(Path root, String kind, String name) {
        if (!isSegment(name) || name.indexOf('/') >= 0) {
            throw new StorageException("Invalid " + kind + " name: \"" + quote(name) + "\" (a " + kind
                    + " is one folder name under the root; '/', '\\', NUL, '.', '..' and empty names are refused)");
        }
        return inside(root, kind, name);
    }

    /**
     * @param root the storage root
     * @param kind what the name names, for the message ({@code "log collection"})
     * @param name folder names separated by {@code /}, each one as {@link #folder} accepts, no
     *     leading {@code /}
     * @return {@code root/name}, absolute and normalised
     * @throws StorageException {@code Invalid <kind> name: "<name>" …} when the name is refused
     */
    public static Path folders(Path root, String kind, String name) {
        boolean bad = name == null || name.isEmpty() || name.startsWith("/");
        if (!bad) {
            for (String part : name.split("/", -1)) {
                bad |= !isSegment(part);
            }
        }
        if (bad) {
            throw new StorageException("Invalid " + kind + " name: \"" + quote(name) + "\" (names separated by '/';"
                    + " empty names, '.', '..', '\\' and NUL are refused)");
        }
        return inside(root, kind, name);
    }

    private static boolean isSegment(String part) {
        return part != null && !part.isEmpty() && !part.equals(".") && !part.equals("..")
                && part.indexOf('\\') < 0 && part.indexOf('\0') < 0;
    }

    private static Path inside(Path root, String kind, String name) {
        if (root == null) {
            throw new StorageException("Storage root must not be null (" + kind + " \"" + quote(name) + "\").");
        }
        Path base = root.toAbsolutePath().normalize();
        Path resolved = base.resolve(name).normalize();
        if (!resolved.startsWith(base) || resolved.equals(base)) {
            throw new StorageException("Invalid " + kind + " name: \"" + quote(name) + "\" leaves the root " + base);
        }
        return resolved;
    }

    private static String quote(String name) {
        return name == null ? "null" : name.replace("\0", "\\0");
    }
}
