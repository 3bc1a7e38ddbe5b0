package dev.storh.cli;

import dev.storh.doc.DocStore;
import dev.storh.progress.ProgressListener;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code storh export <root> [collection] [doc] -o <file|->}: writes every record of a document
 * collection as one JSONL line {@code {"id":"<id>","data":{...}}}, in id order.
 * The file is replaced atomically; the export is a consistent
 * snapshot (writers wait). Prints {@code {records, file}}; with {@code -o -} the JSONL itself goes
 * to standard output and no report is printed. A corrupt record stops the export with exit 1 and
 * leaves the target unchanged.
 */
@Command(name = "export", mixinStandardHelpOptions = true,
        description = {"Write every record of a document collection to a JSONL file, in id order.",
            "Lines are {\"id\":\"...\",\"data\":{...}}; the file is replaced atomically. Prints {records, file}.",
            "A corrupt record stops the export (exit 1) and leaves the file unchanged: run 'repair' first."})
final class ExportCommand extends CollectionCommand {

    @Option(names = {"-o", "--output"}, required = true, paramLabel = "<file>",
            description = "JSONL file to write (its folder is created), or - for standard output (no report then).")
    String outputFile;

    @Override
    void checkOptions(Target target) {
        if (!outputFile.equals("-") && Files.isDirectory(Path.of(outputFile))) {
            throw new CliUsageException("Export file is a directory: " + outputFile);
        }
    }

    @Override
    Outcome run(DocStore store, ProgressListener progress) {
        if (!outputFile.equals("-")) {
            Path file = Path.of(outputFile).toAbsolutePath();
            long records = store.exportJsonl(file, progress);
            Map<String, Object> report = new LinkedHashMap<>();
            report.put("records", records);
            report.put("file", file.toString());
            return Outcome.ok(report);
        }
        Path temp = TempFiles.create("storh-export-", "for the export");
        try {
            store.exportJsonl(temp, progress);
            spec.commandLine().getOut().flush();
            Files.copy(temp, System.out);
            System.out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("Could not write the export to standard output", e);
        } finally {
            TempFiles.deleteQuietly(temp);
        }
        return new Outcome(null, true);
    }
}
