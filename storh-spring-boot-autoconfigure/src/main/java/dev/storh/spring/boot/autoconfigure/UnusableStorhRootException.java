package dev.storh.spring.boot.autoconfigure;

import java.nio.file.Path;

import dev.storh.StorageException;

/**
 * Thrown at startup when the folder storh keeps its stores in ({@code storh.root}, with
 * {@code storh.namespace} below it) cannot be used: it is a regular file, lies below one, or
 * cannot be written or created. Reported by {@link UnusableStorhRootFailureAnalyzer}.
 */
public class UnusableStorhRootException extends StorageException {

    private static final long serialVersionUID = 1L;

    private final transient Path folder;

    private final String problem;

    /**
     * @param folder the absolute collections folder
     * @param problem what is wrong with it, naming the path
     */
    public UnusableStorhRootException(Path folder, String problem) {
        super("storh cannot use " + folder + " as its storage folder: " + problem);
        this.folder = folder;
        this.problem = problem;
    }

    /**
     * @return the absolute collections folder
     */
    public Path getFolder() {
        return this.folder;
    }

    /**
     * @return what is wrong with it
     */
    public String getProblem() {
        return this.problem;
    }

}
