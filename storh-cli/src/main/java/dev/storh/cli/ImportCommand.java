package dev.storh.cli;

import dev.storh.doc.DocStore;
import dev.storh.progress.ProgressListener;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code storh import <root> [collection] [doc] -i <file|->}: writes the rows of a JSONL file
 * into a document collection (an envelope {@code {"id","data"}}
 * keeps its id, bare data gets a new one, an existing id is overwritten). The collection folder is
 * created when missing. Prints {@code {imported, records}}: rows written and the collection's
 * record count afterwards. A bad row stops the import with exit 1, naming the file and line; rows
 * before it stay written.
 */
@Command(name = "import", mixinStandardHelpOptions = true,
        description = {"Write the rows of a JSONL file into a document collection (created when missing).",
            "Each line is {\"id\": ..., \"data\": {...}} (the id is kept, an existing record replaced) or bare data (new id).",
            "Prints {imported, records}. A bad row stops the import (exit 1); rows before it stay written."})
final class ImportCommand extends CollectionCommand {

    @Option(names = {"-i", "--input"}, required = true, paramLabel = "<file>",
            description = "JSONL file to read, or - for standard input.")
    String inputFile;

    @Override
    boolean createsCollection() {
        return true;
    }

    @Override
    void checkOptions(Target target) {
        if (!inputFile.equals("-") && !Files.isRegularFile(Path.of(inputFile))) {
            throw new CliUsageException("Import file not found: " + inputFile
                    + (Files.isDirectory(Path.of(inputFile)) ? " is a directory" : ""));
        }
    }

    @Override
    Outcome run(DocStore store, ProgressListener progress) {
        Path file = inputFile.equals("-") ? copyStdin() : Path.of(inputFile);
        try {
            long imported = store.importJsonl(file, progress);
            Map<String, Object> report = new LinkedHashMap<>();
            report.put("imported", imported);
            report.put("records", store.count());
            return Outcome.ok(report);
        } finally {
            if (inputFile.equals("-")) {
                TempFiles.deleteQuietly(file);
            }
        }
    }

    private static Path copyStdin() {
        Path temp = TempFiles.create("storh-import-", "to buffer standard input for import");
        try (InputStream in = System.in) {
            Files.copy(in, temp, StandardCopyOption.REPLACE_EXISTING);
            return temp;
        } catch (IOException e) {
            TempFiles.deleteQuietly(temp);
            throw new UncheckedIOException("Could not buffer standard input for import", e);
        }
    }
}
