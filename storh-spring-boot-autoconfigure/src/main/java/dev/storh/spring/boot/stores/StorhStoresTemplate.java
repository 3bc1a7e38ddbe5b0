package dev.storh.spring.boot.stores;

import dev.storh.doc.DocStore;
import dev.storh.spring.data.core.StorhEntityConverter;
import dev.storh.spring.data.core.StorhTemplate;
import dev.storh.spring.data.mapping.StorhMappingContext;

import org.springframework.util.Assert;

/**
 * A {@link StorhTemplate} that takes its DocStores from a {@link StorhStores} registry, so every
 * collection the application uses is opened with its configured options (cache, indexes), is
 * seen by health, metrics and the endpoint, and is closed by the registry.
 */
public class StorhStoresTemplate extends StorhTemplate {

	private final StorhStores stores;

	private volatile boolean closed;

	/**
	 * @param stores the registry that opens and owns the collections
	 * @param mappingContext the mapping context shared with the repositories
	 */
	public StorhStoresTemplate(StorhStores stores, StorhMappingContext mappingContext) {
		super(stores.collectionsFolder(), mappingContext);
		this.stores = stores;
	}

	/**
	 * @param stores the registry that opens and owns the collections
	 * @param converter entity conversion over the application's Jackson mapper
	 */
	public StorhStoresTemplate(StorhStores stores, StorhEntityConverter converter) {
		super(stores.collectionsFolder(), converter);
		this.stores = stores;
	}

	/**
	 * @return the registry the collections come from
	 */
	public StorhStores getStores() {
		return this.stores;
	}

	/**
	 * @param collection the collection name
	 * @return the registry's DocStore of the collection
	 * @throws IllegalStateException when this template is closed
	 */
	@Override
	public DocStore docStore(String collection) {
		Assert.hasText(collection, "'collection' must not be empty");
		if (this.closed) {
			throw new IllegalStateException("StorhTemplate for " + collectionsFolder() + " is closed");
		}
		return this.stores.docStore(collection);
	}

	/**
	 * Marks this template closed; the registry closes the collections.
	 */
	@Override
	public void close() {
		this.closed = true;
		super.close();
	}

}
