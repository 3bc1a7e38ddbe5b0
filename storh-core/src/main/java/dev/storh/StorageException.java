package dev.storh;

/**
 * The unchecked exception for every storage failure in storh: invalid ids, unreadable or corrupt
 * files, failed writes, lock problems, bad input. Messages name the id, path or field that failed
 * and keep the substrings the original's callers match on, e.g.
 * {@code "Invalid UUIDv7 value."}, {@code "Could not read storage file: <path>"}.
 *
 * <p>Subclasses narrow the cause: {@link CorruptRecordException}, {@link LockTimeoutException}.
 */
public class StorageException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * @param message what failed, naming the id, path or field
     */
    public StorageException(String message) {
        super(message);
    }

    /**
     * @param message what failed, naming the id, path or field
     * @param cause the underlying I/O or parse error
     */
    public StorageException(String message, Throwable cause) {
        super(message, cause);
    }
}
