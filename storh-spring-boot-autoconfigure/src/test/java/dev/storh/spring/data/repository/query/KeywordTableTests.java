package dev.storh.spring.data.repository.query;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import dev.storh.spring.data.core.StorhTemplate;
import dev.storh.spring.data.repository.StorhRepository;
import dev.storh.spring.data.repository.support.StorhRepositoryFactory;
import dev.storh.spring.sample.shop.Item;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.data.repository.query.QueryCreationException;
import org.springframework.data.repository.query.parser.Part;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Every derived-query keyword of Spring Data is either supported or refused when the repository
 * is created, with a reason, and the README's keyword table names each of them.
 */
class KeywordTableTests {

    private static final Set<Part.Type> REFUSED = EnumSet.of(Part.Type.NEAR, Part.Type.WITHIN, Part.Type.IS_EMPTY,
            Part.Type.IS_NOT_EMPTY);

    @TempDir
    Path root;

    @Test
    void everyKeywordIsSupportedOrRefused() {
        for (Part.Type type : Part.Type.values()) {
            assertThat(StorhQueryCreator.SUPPORTED_TYPES.contains(type) != REFUSED.contains(type))
                .as("%s is either supported or refused", type)
                .isTrue();
        }
    }

    @Test
    void refusedKeywordsFailWhenTheRepositoryIsCreatedNamingTheMethodAndTheReason() {
        try (StorhTemplate template = new StorhTemplate(this.root)) {
            StorhRepositoryFactory factory = new StorhRepositoryFactory(template);
            for (Class<?> repository : List.of(NearItems.class, WithinItems.class, EmptyItems.class,
                    NotEmptyItems.class)) {
                assertThatExceptionOfType(QueryCreationException.class)
                    .isThrownBy(() -> factory.getRepository(repository))
                    .withMessageContaining(repository.getSimpleName())
                    .withMessageContaining("is not supported by storh; supported keywords:");
            }
        }
    }

    @Test
    void theReadmeTableNamesEveryKeyword() throws IOException {
        Path readme = Path.of("..", "README.md");
        String text = Files.readString(readme);
        int start = text.indexOf("#### Derived-query keywords");
        assertThat(start).as("the README has the keyword table").isNotNegative();
        String table = text.substring(start, text.indexOf("\n\n", text.indexOf("| Keyword", start)));
        for (Part.Type type : Part.Type.values()) {
            assertThat(type.getKeywords()).as("README row for %s", type)
                .anySatisfy((keyword) -> assertThat(table).contains("`" + keyword + "`"));
        }
    }

    interface NearItems extends StorhRepository<Item, String> {

        List<Item> findByTitleNear(String title);

    }

    interface WithinItems extends StorhRepository<Item, String> {

        List<Item> findByTitleWithin(String title);

    }

    interface EmptyItems extends StorhRepository<Item, String> {

        List<Item> findByTitleIsEmpty();

    }

    interface NotEmptyItems extends StorhRepository<Item, String> {

        List<Item> findByTitleIsNotEmpty();

    }

}
