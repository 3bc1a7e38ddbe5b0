package dev.storh.cli;

import dev.storh.doc.DocStore;
import dev.storh.progress.ProgressListener;
import java.util.EnumSet;
import java.util.Set;
import picocli.CommandLine.Command;

/**
 * {@code storh reindex <root> [collection] [doc]}: rebuilds every secondary index of a document
 * collection from its record files and prints {@code {fields, entries}}.
 * A log or queue engine is refused rather than ignored.
 */
@Command(name = "reindex", mixinStandardHelpOptions = true,
        description = {"Rebuild the secondary indexes of a document collection; prints {fields, entries}.",
            "Fails (exit 1) on a corrupt record file and leaves the old indexes: run 'repair' first."})
final class ReindexCommand extends StoreCommand {

    @Override
    Set<Engine> engines() {
        return EnumSet.of(Engine.DOC);
    }

    @Override
    Outcome run(Target target, ProgressListener progress) {
        try (DocStore store = DocStore.open(target.root(), target.collection())) {
            return Outcome.ok(store.reindex(progress).toMap());
        }
    }
}
