package dev.storh.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import picocli.CommandLine.Parameters;

/**
 * The positional arguments every store command shares, in the original's order:
 * {@code <root> [collection] [engine]}, and their checks.
 *
 * <p>The original opens whatever it is given, creating folders and running crash recovery on
 * the way. Here a store is opened only after these checks pass: the root exists,
 * the collection folder exists (except for {@code import}), and the folder holds the engine asked
 * for. Without an engine argument the engine is read from the folder ({@link StoreLayout}); that
 * picks the original's default ({@code doc} for stats and verify, {@code log} for compact)
 * wherever the default was the folder's real engine, and refuses to guess otherwise.
 */
final class StoreArguments {

    @Parameters(index = "0", paramLabel = "<root>",
            description = "Storage root: the folder holding the collections, logs and queues.")
    String root;

    @Parameters(index = "1", arity = "0..1", paramLabel = "<collection>", defaultValue = "default",
            description = "Collection, log or queue name under the root (default: ${DEFAULT-VALUE}).")
    String collection;

    @Parameters(index = "2", arity = "0..1", paramLabel = "<engine>", converter = EngineConverter.class,
            description = "doc, log or queue (default: detected from the folder's files).")
    Engine engine;

    /**
     * Checks the arguments against the disk.
     *
     * @param command the command name, for messages
     * @param allowed the engines the command works on
     * @param mayCreate whether a missing collection folder is created (import): the engine then
     *     defaults to {@code doc}
     * @return the checked target
     * @throws CliUsageException naming the root, collection or engine that is wrong
     */
    Target resolve(String command, Set<Engine> allowed, boolean mayCreate) {
        if (root == null || root.isBlank()) {
            throw new CliUsageException("Missing storage root: give the folder holding the collections.");
        }
        if (engine != null && !allowed.contains(engine)) {
            throw new CliUsageException(notSupported(command, allowed, engine));
        }
        Path rootPath = Path.of(root);
        if (!Files.exists(rootPath)) {
            throw new CliUsageException("Storage root not found: " + rootPath);
        }
        if (!Files.isDirectory(rootPath)) {
            throw new CliUsageException("Storage root is not a directory: " + rootPath);
        }
        checkName();
        Path dir = rootPath.resolve(collection);
        Engine chosen;
        if (!Files.isDirectory(dir)) {
            if (Files.exists(dir)) {
                throw new CliUsageException("Not a collection folder: " + dir + " is a file (root " + rootPath
                        + ", collection '" + collection + "').");
            }
            if (!mayCreate) {
                throw new CliUsageException("Unknown collection '" + collection + "' under root " + rootPath
                        + ": no folder " + dir + ". " + foundUnder(rootPath));
            }
            chosen = engine == null ? Engine.DOC : engine;
        } else {
            chosen = engineOf(dir, mayCreate);
        }
        if (!allowed.contains(chosen)) {
            throw new CliUsageException(notSupported(command, allowed, chosen) + " Collection '" + collection
                    + "' under root " + rootPath + " is a " + chosen.description() + " ("
                    + StoreLayout.evidence(chosen, dir) + ").");
        }
        if (chosen != Engine.LOG && collection.contains("/")) {
            throw new CliUsageException("Invalid collection name '" + collection + "': a " + chosen.description()
                    + " is one folder name under the root (only segmented logs take a path such as events/partitions/2026-11).");
        }
        return new Target(rootPath, collection, chosen);
    }

    private Engine engineOf(Path dir, boolean emptyIsDoc) {
        Set<Engine> detected = StoreLayout.detect(dir);
        if (engine != null) {
            if (!detected.isEmpty() && !detected.contains(engine)) {
                Engine actual = detected.iterator().next();
                throw new CliUsageException("Wrong engine for collection '" + collection + "' under root " + root
                        + ": " + dir + " is a " + describe(detected, dir) + ", not a " + engine.description()
                        + ". Run with engine '" + actual.word() + "'" + (detected.size() > 1 ? " or name another." : "."));
            }
            return engine;
        }
        if (detected.isEmpty()) {
            if (emptyIsDoc) {
                return Engine.DOC;
            }
            throw new CliUsageException("Cannot tell the engine of collection '" + collection + "' under root " + root
                    + ": " + dir + " holds none of data/, .storh/, manifest.jsonc, segments/, queue.log."
                    + " Name the engine: " + Engine.words() + ".");
        }
        if (detected.size() > 1) {
            throw new CliUsageException("Collection '" + collection + "' under root " + root + " holds the files of more"
                    + " than one engine (" + describe(detected, dir) + "). Name the engine: "
                    + detected.stream().map(Engine::word).collect(Collectors.joining(" or ")) + ".");
        }
        return detected.iterator().next();
    }

    private void checkName() {
        String problem = null;
        if (collection.isEmpty()) {
            problem = "it is empty";
        } else if (collection.indexOf('\\') >= 0 || collection.indexOf('\0') >= 0) {
            problem = "'\\' and NUL are refused";
        } else if (collection.startsWith("/")) {
            problem = "it must be relative to the root";
        } else {
            for (String part : collection.split("/", -1)) {
                if (part.isEmpty() || part.equals(".") || part.equals("..")) {
                    problem = "empty, '.' and '..' parts are refused, so the store stays under the root";
                    break;
                }
            }
        }
        if (problem != null) {
            throw new CliUsageException("Invalid collection name '" + collection.replace("\0", "\\0") + "': " + problem + ".");
        }
    }

    private static String describe(Set<Engine> engines, Path dir) {
        return engines.stream().map(e -> e.description() + " (" + StoreLayout.evidence(e, dir) + ")")
                .collect(Collectors.joining(" and a "));
    }

    private static String notSupported(String command, Set<Engine> allowed, Engine engine) {
        String names = allowed.stream().map(Engine::description).collect(Collectors.joining(", "));
        return "'" + command + "' works on " + (allowed.size() == 1 ? names + "s only" : names + "s")
                + ", not on a " + engine.description() + " (engine '" + engine.word() + "').";
    }

    private static String foundUnder(Path root) {
        List<StoreLayout.Found> found = StoreLayout.list(root);
        if (found.isEmpty()) {
            return "No collections, logs or queues found under the root.";
        }
        return "Found: " + found.stream().map(f -> f.name() + " (" + f.engine().word() + ")")
                .collect(Collectors.joining(", ")) + ".";
    }
}
