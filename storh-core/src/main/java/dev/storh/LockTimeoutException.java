package dev.storh;

import java.nio.file.Path;
import java.time.Duration;

/**
 * A write lock (of a DocStore collection, a log or a queue) could not be taken within the configured timeout, because another
 * thread or process held it that long (the original waits forever).
 */
public class LockTimeoutException extends StorageException {

    private static final long serialVersionUID = 1L;

    private final transient Path path;

    /**
     * @param path the lock file
     * @param waited how long the caller waited
     */
    public LockTimeoutException(Path path, Duration waited) {
        super("Could not take the collection lock within " + waited.toMillis() + " ms: " + path);
        this.path = path;
    }

    /**
     * @return the lock file that stayed locked
     */
    public Path path() {
        return path;
    }
}
