package dev.storh.doc.index;

import java.nio.file.Path;

/**
 * Every file and folder name inside an index tree ({@code .storh/indexes/entries/}, or a tree
 * being built beside it), computed in one place; the tree itself and the manifest beside it are
 * named by {@link dev.storh.doc.DocLayout}.
 *
 * <pre>
 * eq/&lt;hex(field)&gt;/&lt;valueKey&gt;.jsonc                      an equality value file
 * compound/&lt;hex(left)&gt;-&lt;hex(right)&gt;/c-&lt;xxh128&gt;.jsonc    a compound value file (left sorts first)
 * range/&lt;hex(field)&gt;.jsonl                             a range field's main file
 * range/&lt;hex(field)&gt;.idx.jsonc                         its checkpoints
 * range/&lt;hex(field)&gt;.delta.jsonl                       its appended changes
 * range/&lt;hex(field)&gt;.unindexed.jsonc                   ids of records holding lists or objects
 * paths/&lt;key&gt;.jsonl                                    a path index: a header line, then one line per record
 * paths/&lt;key&gt;.delta.jsonl                              its appended record lines
 * </pre>
 *
 * {@code hex} is the lowercase hex of the field name's UTF-8 bytes ({@link IndexKeys#hex}); value
 * keys are {@link IndexKeys#valueKey} and {@link IndexKeys#compoundKey}. These are the original's
 * names, so both implementations read each other's trees; {@code paths/} and the {@code unindexed}
 * lists are storh's own (the original neither reads nor checks them). Stateless; no method touches the disk.
 */
final class IndexLayout {

    /** The ending of a value file. */
    static final String VALUE_EXTENSION = ".jsonc";

    private IndexLayout() {
    }

    /** @return {@code <entries>/eq/<hex(field)>/} */
    static Path equalityDir(Path entries, String field) {
        return entries.resolve("eq").resolve(IndexKeys.hex(field));
    }

    /** @return {@code <entries>/compound/<hex(left)>-<hex(right)>/} */
    static Path compoundDir(Path entries, String left, String right) {
        return entries.resolve("compound").resolve(IndexKeys.hex(left) + "-" + IndexKeys.hex(right));
    }

    /** @return {@code <dir>/<key>.jsonc}, a value file of an equality or compound folder */
    static Path valueFile(Path dir, String key) {
        return dir.resolve(key + VALUE_EXTENSION);
    }

    /** @return {@code <entries>/range/<hex(field)>.jsonl} */
    static Path rangeMain(Path entries, String field) {
        return rangeFile(entries, field, ".jsonl");
    }

    /** @return {@code <entries>/range/<hex(field)>.idx.jsonc} */
    static Path rangeCheckpoints(Path entries, String field) {
        return rangeFile(entries, field, ".idx.jsonc");
    }

    /** @return {@code <entries>/range/<hex(field)>.delta.jsonl} */
    static Path rangeDelta(Path entries, String field) {
        return rangeFile(entries, field, ".delta.jsonl");
    }

    /** @return {@code <entries>/range/<hex(field)>.unindexed.jsonc} */
    static Path rangeUnindexed(Path entries, String field) {
        return rangeFile(entries, field, ".unindexed.jsonc");
    }

    /** @return {@code <entries>/paths/<key>.jsonl}, the main file of a path index */
    static Path pathMain(Path entries, PathIndexDefinition d) {
        return entries.resolve("paths").resolve(d.fileKey() + ".jsonl");
    }

    /** @return {@code <entries>/paths/<key>.delta.jsonl}, the appended changes of a path index */
    static Path pathDelta(Path entries, PathIndexDefinition d) {
        return entries.resolve("paths").resolve(d.fileKey() + ".delta.jsonl");
    }

    private static Path rangeFile(Path entries, String field, String ending) {
        return entries.resolve("range").resolve(IndexKeys.hex(field) + ending);
    }
}
