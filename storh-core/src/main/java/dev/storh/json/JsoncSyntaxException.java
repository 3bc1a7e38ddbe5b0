package dev.storh.json;

import dev.storh.StorageException;

/**
 * A JSON or JSONC text is not well-formed. Callers that read files wrap it with the file's path
 * ({@code "Invalid JSONC storage file: <path>"}).
 */
public class JsoncSyntaxException extends StorageException {

    private static final long serialVersionUID = 1L;

    /**
     * @param message what is wrong, with Jackson's line and column
     * @param cause Jackson's exception
     */
    public JsoncSyntaxException(String message, Throwable cause) {
        super(message, cause);
    }
}
