package dev.storh;

import java.nio.file.Path;

/**
 * A record file exists but cannot be used: it is not a JSONC object, its id is not a valid
 * UUIDv7, or its id does not match its file name. The file is left
 * untouched; {@code repair()} quarantines such files.
 */
public class CorruptRecordException extends StorageException {

    private static final long serialVersionUID = 1L;

    private final transient Path path;

    /**
     * @param message what is wrong, including the path
     * @param path the corrupt file
     * @param cause the parse or validation error, may be {@code null}
     */
    public CorruptRecordException(String message, Path path, Throwable cause) {
        super(message, cause);
        this.path = path;
    }

    /**
     * @return the corrupt file
     */
    public Path path() {
        return path;
    }
}
