package dev.storh.spring.sample.shop;

import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import dev.storh.spring.data.repository.StorhRepository;
import dev.storh.spring.data.repository.query.Query;

import org.springframework.data.domain.Limit;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.data.domain.ScrollPosition;
import org.springframework.data.domain.Sort;
import org.springframework.data.domain.Window;

/**
 * Scrolling on any sort, projections and declared field projections.
 */
public interface ItemRepository extends StorhRepository<Item, String> {

    Window<Item> findByCategoryOrderByPriceAsc(String category, ScrollPosition position, Limit limit);

    Window<Item> findByCategory(String category, ScrollPosition position, Limit limit, Sort sort);

    Window<Item> findFirst2ByPriceGreaterThanOrderByMakerNameDescTitleAsc(Long price, ScrollPosition position);

    List<ItemTitle> findByCategoryOrderByTitle(String category);

    Page<ItemTitle> findByCategory(String category, Pageable pageable);

    List<ItemSummary> findSummaryByCategoryOrderByPriceAscTitleAsc(String category);

    Optional<ItemSummary> findSummaryBySku(String sku);

    Stream<ItemSummary> streamSummaryByCategory(String category);

    Window<ItemSummary> findSummaryByCategoryOrderByTitle(String category, ScrollPosition position, Limit limit);

    <T> List<T> findByPriceLessThanOrderByTitle(Long price, Class<T> type);

    List<Item> findBySkuIsNull();

    @Query(value = "{\"category\": ?0}", fields = "{\"title\": 1, \"maker.name\": 1}", sort = "{\"title\": 1}")
    List<Item> declaredTitlesAndMakerNames(String category);

    @Query(value = "{\"category\": ?0}", fields = "{\"maker\": 0, \"sku\": false}", sort = "{\"title\": 1}")
    List<Item> declaredWithoutMakerAndSku(String category);

    @Query(value = "{\"category\": ?0}", fields = "{\"title\": 1}", sort = "{\"title\": 1}")
    List<ItemSummary> declaredSummaries(String category);

}
