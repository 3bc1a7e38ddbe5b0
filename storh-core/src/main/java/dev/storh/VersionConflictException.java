package dev.storh;

/**
 * A compare-and-set write lost a race: the file (or blob) was changed, created or deleted by
 * another writer after its version was read, so nothing was written. Read it again and retry, or
 * report the conflict (Spring maps it to {@code OptimisticLockingFailureException}).
 */
public class VersionConflictException extends StorageException {

    private static final long serialVersionUID = 1L;

    private final String name;
    private final String expectedVersion;

    /**
     * @param name the file or blob that was not written
     * @param expectedVersion the version the writer expected, {@code null} when it expected the
     *     name not to exist
     */
    public VersionConflictException(String name, String expectedVersion) {
        this(name, expectedVersion, null);
    }

    /**
     * @param name the file or blob that was not written
     * @param expectedVersion the version the writer expected, {@code null} when it expected the
     *     name not to exist
     * @param cause the service's or file system's answer, or {@code null}
     */
    public VersionConflictException(String name, String expectedVersion, Throwable cause) {
        super("Version conflict on " + name + ": " + (expectedVersion == null ? "it exists already"
                : "it is no longer version " + expectedVersion) + " (changed by another writer; nothing was written)",
                cause);
        this.name = name;
        this.expectedVersion = expectedVersion;
    }

    /**
     * @return the file or blob that was not written
     */
    public String name() {
        return name;
    }

    /**
     * @return the version the writer expected, or {@code null} for "must not exist"
     */
    public String expectedVersion() {
        return expectedVersion;
    }
}
