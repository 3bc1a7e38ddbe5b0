package dev.storh.cli;

/**
 * An operator's mistake found before any store is opened: a missing root, an unknown collection,
 * a wrong engine, a missing input file. The command line prints the message and exits with
 * {@link StorhCli#EXIT_USAGE}.
 */
final class CliUsageException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * @param message what is wrong, naming the root, collection, engine or file
     */
    CliUsageException(String message) {
        super(message);
    }
}
