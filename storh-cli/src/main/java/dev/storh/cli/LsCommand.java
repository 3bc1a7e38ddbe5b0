package dev.storh.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code storh ls <root>}: the collections, logs and queues under a root, found by their files
 * ({@link StoreLayout}) without opening anything, so it changes nothing on disk. Prints
 * {@code {root, collections: [{name, engine, files, bytes}]}}, sorted by name.
 */
@Command(name = "ls", mixinStandardHelpOptions = true,
        description = {"List the collections, logs and queues under a root, with engine, files and bytes.",
            "Reads folder listings only: nothing is opened or created.",
            "Prints {root, collections: [{name, engine, files, bytes}]}."})
final class LsCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "<root>",
            description = "Storage root: the folder holding the collections, logs and queues.")
    String root;

    @Mixin
    OutputOptions output;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        if (root.isBlank()) {
            throw new CliUsageException("Missing storage root: give the folder holding the collections.");
        }
        Path rootPath = Path.of(root);
        if (!Files.exists(rootPath)) {
            throw new CliUsageException("Storage root not found: " + rootPath);
        }
        if (!Files.isDirectory(rootPath)) {
            throw new CliUsageException("Storage root is not a directory: " + rootPath);
        }
        List<StoreLayout.Found> found;
        try (ProgressBar progress = ProgressBar.start(output.progress, spec.commandLine().getErr(), "ls " + rootPath,
                "stores")) {
            found = StoreLayout.list(rootPath);
        }
        List<Map<String, Object>> items = new ArrayList<>();
        List<List<Object>> rows = new ArrayList<>();
        for (StoreLayout.Found f : found) {
            items.add(f.toMap());
            rows.add(List.of(f.name(), f.engine().word(), f.files(), f.bytes(), Table.humanBytes(f.bytes())));
        }
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("root", root);
        report.put("collections", items);
        output.printListing(spec.commandLine().getOut(), report, List.of("NAME", "ENGINE", "FILES", "BYTES", "SIZE"), rows);
        return StorhCli.EXIT_OK;
    }
}
