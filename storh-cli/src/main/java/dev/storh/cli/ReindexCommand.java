package dev.storh.cli;

import dev.storh.doc.DocStore;
import dev.storh.progress.ProgressListener;
import picocli.CommandLine.Command;

/**
 * {@code storh reindex <root> [collection] [doc]}: rebuilds every secondary index of a document
 * collection from its record files and prints {@code {fields, entries}}.
 * A log or queue engine is refused rather than ignored.
 */
@Command(name = "reindex", mixinStandardHelpOptions = true,
        description = {"Rebuild the secondary indexes of a document collection; prints {fields, entries}.",
            "Fails (exit 1) on a corrupt record file and leaves the old indexes: run 'repair' first."})
final class ReindexCommand extends CollectionCommand {

    @Override
    Outcome run(DocStore store, ProgressListener progress) {
        return Outcome.ok(store.reindex(progress).toMap());
    }
}
