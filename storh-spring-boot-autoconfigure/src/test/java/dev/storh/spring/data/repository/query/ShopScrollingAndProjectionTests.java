package dev.storh.spring.data.repository.query;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import dev.storh.spring.boot.autoconfigure.StorhAutoConfiguration;
import dev.storh.spring.boot.autoconfigure.StorhRepositoriesAutoConfiguration;
import dev.storh.spring.data.core.StorhOperations;
import dev.storh.spring.data.core.query.StorhCriteria;
import dev.storh.spring.data.core.query.StorhQuery;
import dev.storh.spring.data.repository.StorhRepository;
import dev.storh.spring.data.repository.support.StorhRepositoryFactory;
import dev.storh.spring.sample.shop.Item;
import dev.storh.spring.sample.shop.ItemRepository;
import dev.storh.spring.sample.shop.ItemSummary;
import dev.storh.spring.sample.shop.ItemTitle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurationPackage;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.dao.InvalidDataAccessApiUsageException;
import org.springframework.data.domain.KeysetScrollPosition;
import org.springframework.data.domain.Limit;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.PageRequest;
import org.springframework.data.domain.ScrollPosition;
import org.springframework.data.domain.Sort;
import org.springframework.data.domain.Window;
import org.springframework.data.repository.query.QueryCreationException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Keyset and offset scrolling on any sort, interface and DTO projections and declared field
 * projections, on a real application context whose repositories write real files.
 */
class ShopScrollingAndProjectionTests {

    @TempDir
    Path root;

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(
                AutoConfigurations.of(StorhAutoConfiguration.class, StorhRepositoriesAutoConfiguration.class))
        .withUserConfiguration(ShopPackage.class);

    /** Saved in this order, so ids ascend in it; prices tie in threes and twos. */
    private record Stock(Item a, Item b, Item c, Item d, Item e, Item f, Item g, Item lamp) {

        /** The tools by price, ties by id. */
        List<Item> toolsByPrice() {
            return List.of(b(), d(), f(), c(), g(), a(), e());
        }

    }

    private static Stock stock(ItemRepository items) {
        Item a = items.save(Item.of("Axe", 30, "T-1", "tools", "Fiskars"));
        Item b = items.save(Item.of("Bit", 10, null, "tools", "Bahco"));
        Item c = items.save(Item.of("Chisel", 20, "T-3", "tools", "Bahco"));
        Item d = items.save(Item.of("Drill", 10, null, "tools", "Makita"));
        Item e = items.save(Item.of("Edger", 30, "T-5", "tools", "Fiskars"));
        Item f = items.save(Item.of("File", 10, "T-6", "tools", "Bahco"));
        Item g = items.save(Item.of("Gouge", 20, null, "tools", "Makita"));
        Item lamp = items.save(Item.of("Lamp", 45, "H-1", "home", "Ikea"));
        return new Stock(a, b, c, d, e, f, g, lamp);
    }

    @Test
    void keysetScrollsForwardOnAnySortWithTiesBrokenById() {
        run((items, operations) -> {
            Stock s = stock(items);
            List<Item> seen = new ArrayList<>();
            ScrollPosition position = ScrollPosition.keyset();
            List<Integer> sizes = new ArrayList<>();
            Window<Item> window;
            do {
                // windows of two cut the three-way tie at 10 in the middle
                window = items.findByCategoryOrderByPriceAsc("tools", position, Limit.of(2));
                seen.addAll(window.getContent());
                sizes.add(window.size());
                if (!window.isEmpty()) {
                    position = window.positionAt(window.size() - 1);
                }
            }
            while (window.hasNext());
            assertThat(seen).containsExactlyElementsOf(s.toolsByPrice());
            assertThat(sizes).containsExactly(2, 2, 2, 1);

            Window<Item> first = items.findByCategoryOrderByPriceAsc("tools", ScrollPosition.keyset(), Limit.of(3));
            Map<String, Object> keys = new LinkedHashMap<>();
            keys.put("price", 10L);
            keys.put("id", s.f().id());
            assertThat(first.positionAt(2)).isEqualTo(ScrollPosition.forward(keys));
            // an item saved after the first window, tied with its last one but with a later id, follows
            Item late = items.save(Item.of("Awl", 10, null, "tools", "Bahco"));
            assertThat(items.findByCategoryOrderByPriceAsc("tools", first.positionAt(2), Limit.of(2)).getContent())
                .containsExactly(late, s.c());
            // a position built by hand with a Java value of the property's type
            assertThat(items.findByCategoryOrderByPriceAsc("tools",
                    ScrollPosition.forward(Map.of("price", 20, "id", s.c().id())), Limit.of(5)).getContent())
                .containsExactly(s.g(), s.a(), s.e());
        });
    }

    @Test
    void keysetScrollsBackwardsKeepingTheQueryOrderInEachWindow() {
        run((items, operations) -> {
            Stock s = stock(items);
            Window<Item> last = items.findByCategoryOrderByPriceAsc("tools", ScrollPosition.keyset().backward(), Limit.of(3));
            assertThat(last.getContent()).containsExactly(s.g(), s.a(), s.e());
            assertThat(last.hasNext()).as("more items before").isTrue();
            assertThat(((KeysetScrollPosition) last.positionAt(0)).scrollsBackward()).isTrue();

            Window<Item> before = items.findByCategoryOrderByPriceAsc("tools", last.positionAt(0), Limit.of(3));
            assertThat(before.getContent()).containsExactly(s.d(), s.f(), s.c());
            Window<Item> start = items.findByCategoryOrderByPriceAsc("tools", before.positionAt(0), Limit.of(3));
            assertThat(start.getContent()).containsExactly(s.b());
            assertThat(start.hasNext()).isFalse();

            // turning round: forward again from the first item of a backward window
            Map<String, ?> keys = ((KeysetScrollPosition) before.positionAt(0)).getKeys();
            assertThat(items.findByCategoryOrderByPriceAsc("tools", ScrollPosition.forward(keys), Limit.of(2))
                .getContent()).containsExactly(s.f(), s.c());
            // backwards in id order too
            assertThat(items.findByCategory("tools", ScrollPosition.backward(Map.of("id", s.e().id())), Limit.of(2),
                    Sort.unsorted()).getContent()).containsExactly(s.c(), s.d());
        });
    }

    @Test
    void keysetScrollsOnDescendingAndNestedSortsAndBySortArgument() {
        run((items, operations) -> {
            Stock s = stock(items);
            // maker name descending (Makita, Ikea, Fiskars, Bahco), then title
            Window<Item> first = items.findFirst2ByPriceGreaterThanOrderByMakerNameDescTitleAsc(15L,
                    ScrollPosition.keyset());
            assertThat(first.getContent()).containsExactly(s.g(), s.lamp());
            assertThat(((KeysetScrollPosition) first.positionAt(1)).getKeys()).containsEntry("maker.name", "Ikea")
                .containsEntry("title", "Lamp")
                .containsEntry("id", s.lamp().id());
            Window<Item> second = items.findFirst2ByPriceGreaterThanOrderByMakerNameDescTitleAsc(15L,
                    first.positionAt(1));
            assertThat(second.getContent()).containsExactly(s.a(), s.e());
            assertThat(items.findFirst2ByPriceGreaterThanOrderByMakerNameDescTitleAsc(15L, second.positionAt(1))
                .getContent()).containsExactly(s.c());

            Sort byPriceDesc = Sort.by(Sort.Order.desc("price"));
            Window<Item> top = items.findByCategory("tools", ScrollPosition.keyset(), Limit.of(3), byPriceDesc);
            assertThat(top.getContent()).containsExactly(s.a(), s.e(), s.c());
            assertThat(items.findByCategory("tools", top.positionAt(2), Limit.of(3), byPriceDesc).getContent())
                .containsExactly(s.g(), s.b(), s.d());
        });
    }

    @Test
    void offsetScrollingAndTheTemplatesScroll() {
        run((items, operations) -> {
            Stock s = stock(items);
            Window<Item> first = items.findByCategory("tools", ScrollPosition.offset(), Limit.of(3), Sort.by("price"));
            assertThat(first.getContent()).containsExactly(s.b(), s.d(), s.f());
            Window<Item> second = items.findByCategory("tools", first.positionAt(2), Limit.of(3), Sort.by("price"));
            assertThat(second.getContent()).containsExactly(s.c(), s.g(), s.a());
            assertThat(second.hasNext()).isTrue();

            StorhQuery byTitle = StorhQuery.where(StorhCriteria.where("category").is("tools"))
                .withSort(Sort.by(Sort.Order.desc("title")))
                .withLimit(2);
            Window<Item> window = operations.scroll(byTitle, ScrollPosition.keyset(), Item.class);
            assertThat(window.getContent()).containsExactly(s.g(), s.f());
            assertThat(operations.scroll(byTitle, window.positionAt(1), Item.class).getContent()).containsExactly(s.e(),
                    s.d());
            // a position without the sort property is refused, naming it
            assertThatExceptionOfType(InvalidDataAccessApiUsageException.class)
                .isThrownBy(() -> items.findByCategoryOrderByPriceAsc("tools",
                        ScrollPosition.forward(Map.of("id", s.b().id())), Limit.of(2)))
                .withMessageContaining("no 'price' key");
        });
    }

    @Test
    void interfaceAndDtoProjectionsOfDerivedQueries() {
        run((items, operations) -> {
            Stock s = stock(items);
            List<ItemTitle> titles = items.findByCategoryOrderByTitle("home");
            assertThat(titles).singleElement().satisfies((title) -> {
                assertThat(title.getTitle()).isEqualTo("Lamp");
                assertThat(title.getPrice()).isEqualTo(45L);
                assertThat(title.getLabel()).isEqualTo("Lamp by Ikea");
            });
            Page<ItemTitle> page = items.findByCategory("tools", PageRequest.of(1, 3, Sort.by("title")));
            assertThat(page.getContent()).extracting(ItemTitle::getTitle).containsExactly("Drill", "Edger", "File");
            assertThat(page.getTotalElements()).isEqualTo(7);

            assertThat(items.findSummaryByCategoryOrderByPriceAscTitleAsc("tools")).containsExactly(
                    new ItemSummary("Bit", 10L), new ItemSummary("Drill", 10L), new ItemSummary("File", 10L),
                    new ItemSummary("Chisel", 20L), new ItemSummary("Gouge", 20L), new ItemSummary("Axe", 30L),
                    new ItemSummary("Edger", 30L));
            assertThat(items.findSummaryBySku("H-1")).contains(new ItemSummary("Lamp", 45L));
            assertThat(items.findSummaryBySku("none")).isEmpty();
            try (Stream<ItemSummary> stream = items.streamSummaryByCategory("home")) {
                assertThat(stream).containsExactly(new ItemSummary("Lamp", 45L));
            }
            Window<ItemSummary> window = items.findSummaryByCategoryOrderByTitle("tools", ScrollPosition.keyset(),
                    Limit.of(2));
            assertThat(window.getContent()).containsExactly(new ItemSummary("Axe", 30L), new ItemSummary("Bit", 10L));
            assertThat(items.findSummaryByCategoryOrderByTitle("tools", window.positionAt(1), Limit.of(1))
                .getContent()).containsExactly(new ItemSummary("Chisel", 20L));

            // dynamic projections: the caller picks entity, interface or DTO
            assertThat(items.findByPriceLessThanOrderByTitle(15L, Item.class)).containsExactly(s.b(), s.d(), s.f());
            assertThat(items.findByPriceLessThanOrderByTitle(15L, ItemSummary.class)).containsExactly(
                    new ItemSummary("Bit", 10L), new ItemSummary("Drill", 10L), new ItemSummary("File", 10L));
            assertThat(items.findByPriceLessThanOrderByTitle(15L, ItemTitle.class)).extracting(ItemTitle::getLabel)
                .containsExactly("Bit by Bahco", "Drill by Makita", "File by Bahco");
        });
    }

    @Test
    void declaredQueriesReadOnlyTheirFields() {
        run((items, operations) -> {
            Stock s = stock(items);
            assertThat(items.declaredTitlesAndMakerNames("home")).containsExactly(
                    new Item(s.lamp().id(), "Lamp", null, null, null, new Item.Maker("Ikea", null)));
            assertThat(items.declaredWithoutMakerAndSku("home"))
                .containsExactly(new Item(s.lamp().id(), "Lamp", 45L, null, "home", null));
            assertThat(items.declaredSummaries("home")).containsExactly(new ItemSummary("Lamp", null));
            // the stored record still holds every field
            assertThat(operations.docStore("items").get(s.lamp().id()).orElseThrow().data())
                .containsEntry("sku", "H-1")
                .containsKey("maker");
        });
    }

    @Test
    void invalidFieldProjectionsFailWhenTheRepositoryIsCreatedNamingTheMethod() {
        run((items, operations) -> {
            StorhRepositoryFactory factory = new StorhRepositoryFactory(operations);
            assertThatExceptionOfType(QueryCreationException.class)
                .isThrownBy(() -> factory.getRepository(MixedFieldsRepository.class))
                .withMessageContaining("MixedFieldsRepository.mixed")
                .withMessageContaining("either keeps fields (1) or leaves them out (0)");
            assertThatExceptionOfType(QueryCreationException.class)
                .isThrownBy(() -> factory.getRepository(UnknownFieldRepository.class))
                .withMessageContaining("UnknownFieldRepository.unknown")
                .withMessageContaining("colour");
        });
    }

    private void run(ShopTest test) {
        this.contextRunner.withPropertyValues("storh.root=" + this.root)
            .run((context) -> test.run(context.getBean(ItemRepository.class), context.getBean(StorhOperations.class)));
    }

    private interface ShopTest {

        void run(ItemRepository items, StorhOperations operations);

    }

    @Configuration(proxyBeanMethods = false)
    @AutoConfigurationPackage(basePackages = "dev.storh.spring.sample.shop")
    static class ShopPackage {

    }

    interface MixedFieldsRepository extends StorhRepository<Item, String> {

        @Query(value = "{}", fields = "{\"title\": 1, \"maker\": 0}")
        List<Item> mixed();

    }

    interface UnknownFieldRepository extends StorhRepository<Item, String> {

        @Query(value = "{}", fields = "{\"colour\": 1}")
        List<Item> unknown();

    }

}
