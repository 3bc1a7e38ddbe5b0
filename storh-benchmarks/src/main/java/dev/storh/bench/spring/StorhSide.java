package dev.storh.bench.spring;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.storh.spring.data.core.StorhTemplate;
import dev.storh.spring.data.repository.support.StorhRepositoryFactory;
import org.springframework.data.domain.PageRequest;
import org.springframework.data.domain.Sort;

/**
 * The storh side: a {@link ProductRepository} over a {@link StorhTemplate} on the folder, in the
 * original's index layout or in value deltas (docs/indexes.md, "Value deltas": opt-in, for a
 * collection the PHP original does not open).
 */
final class StorhSide implements Side {

    private final boolean valueDeltas;

    private StorhTemplate template;

    private ProductRepository repository;

    /**
     * @param valueDeltas whether the collection uses value deltas rather than the original's layout
     */
    StorhSide(boolean valueDeltas) {
        this.valueDeltas = valueDeltas;
    }

    @Override
    public String name() {
        return "storh";
    }

    /** @return the index layout, for the table's header */
    String layout() {
        return valueDeltas ? "value-deltas" : "original";
    }

    @Override
    public void open(Path dir) {
        template = new StorhTemplate(dir);
        repository = new StorhRepositoryFactory(template).getRepository(ProductRepository.class);
    }

    @Override
    public void load(List<Product> batch) {
        List<Map<String, Object>> rows = new ArrayList<>(batch.size());
        for (Product product : batch) {
            rows.add(template.getConverter().toData(product));
        }
        template.docStore("products").putMany(rows);
    }

    @Override
    public void ready() {
        if (valueDeltas) {
            template.docStore("products").indexes().valueDeltas(true).sync(); // as index-layout: value-deltas does
        }
        template.docStore(Product.class); // declares the six indexes and builds them from the records
    }

    @Override
    public void saveAll(List<Product> batch) {
        repository.saveAll(batch);
    }

    @Override
    public String save(Product product) {
        return repository.save(product).id();
    }

    @Override
    public Product get(String id) {
        return repository.findById(id).orElse(null);
    }

    @Override
    public void deleteById(String id) {
        repository.deleteById(id);
    }

    @Override
    public int pageByCategorySortedByName(String category, int page, int size) {
        return repository.findByCategory(category, PageRequest.of(page, size, Sort.by("name"))).getNumberOfElements();
    }

    @Override
    public int priceBetween(long[] range) {
        return repository.findByPriceBetween(range[0], range[1]).size();
    }

    @Override
    public int firstHundredByBrand(String brand) {
        return repository.findFirst100ByBrand(brand).size();
    }

    @Override
    public long countByBrand(String brand) {
        return repository.countByBrand(brand);
    }

    @Override
    public void close() {
        if (template != null) {
            template.close();
        }
    }
}
