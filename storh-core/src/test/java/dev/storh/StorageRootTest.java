package dev.storh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StorageRootTest {

    @Test
    void baseIsTrimmedAndTrailingSlashesDropped() {
        assertThat(StorageRoot.at("  /srv/data/ ").root()).isEqualTo(Path.of("/srv/data"));
        assertThat(StorageRoot.at("C:\\data\\x\\").root().toString()).isEqualTo("C:/data/x");
        assertThat(StorageRoot.at(Path.of("/srv/x")).root()).isEqualTo(Path.of("/srv/x"));
    }

    @Test
    void emptyBasesAreRefused() {
        for (String bad : new String[] {"/", "   ", "", "\t\n"}) {
            assertThatThrownBy(() -> StorageRoot.at(bad)).isInstanceOf(StorageException.class)
                    .hasMessage("Storage root cannot be empty.");
        }
    }

    @Test
    void namespacesAreSanitisedAndNeverLeaveTheRoot() {
        Map<String, String> cases = Map.ofEntries(
                Map.entry("my store!", "my-store"), Map.entry("..", "runtime-storage"), Map.entry("", "runtime-storage"),
                Map.entry("ü", "runtime-storage"), Map.entry(".!", "runtime-storage"), Map.entry(".hidden", "hidden"),
                Map.entry("-x-", "x"), Map.entry("café", "caf"), Map.entry("a/b", "a-b"), Map.entry("../../etc", "etc"),
                Map.entry("x..y", "x..y"), Map.entry("A.B_c-d", "A.B_c-d"));
        StorageRoot root = StorageRoot.at("/srv/x");
        cases.forEach((ns, expected) -> {
            assertThat(root.path(ns)).as(ns).isEqualTo(Path.of("/srv/x", expected));
            assertThat(root.path(ns).getParent()).isEqualTo(Path.of("/srv/x"));
        });
        assertThat(StorageRoot.resolve(Path.of("/srv/x/configured/"), "my store!"))
                .isEqualTo(Path.of("/srv/x/configured/my-store"));
    }
}
