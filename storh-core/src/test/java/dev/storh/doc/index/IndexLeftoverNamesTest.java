package dev.storh.doc.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.doc.DocLayout;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The open's test of a name in {@code .storh/indexes/} is the glob {@link DocLayout#INDEX_FOLDER_LEFTOVER_GLOB}. */
class IndexLeftoverNamesTest {

    @Test
    void theNameTestAnswersAsTheGlob() {
        PathMatcher glob = FileSystems.getDefault().getPathMatcher("glob:" + DocLayout.INDEX_FOLDER_LEFTOVER_GLOB);
        List<String> names = List.of("manifest.jsonc", "paths.jsonc", "entries", "entries.tmp-", "entries.tmp-0123456789ab",
                "entries.old-a1", "entries.old", "entries.tmpx", "entries.oldy-1", ".manifest.jsonc.a1b2c3d4e5f6.tmp", ".tmp",
                "..tmp", ".x.tmp", "x.tmp", ".tmpx", ".manifest.jsonc.tmp.bak", "sort", ".chunks", "entries.tmp-x.tmp");
        for (String name : names) {
            assertThat(IndexRebuilds.isFolderLeftover(name)).as(name).isEqualTo(glob.matches(Path.of(name)));
        }
        assertThat(names.stream().filter(IndexRebuilds::isFolderLeftover))
                .containsExactly("entries.tmp-", "entries.tmp-0123456789ab", "entries.old-a1", ".manifest.jsonc.a1b2c3d4e5f6.tmp",
                        "..tmp", ".x.tmp", "entries.tmp-x.tmp");
    }
}
