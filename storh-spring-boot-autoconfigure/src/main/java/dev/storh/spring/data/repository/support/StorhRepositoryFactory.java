package dev.storh.spring.data.repository.support;

import java.util.Optional;

import dev.storh.spring.data.core.StorhOperations;
import dev.storh.spring.data.mapping.StorhPersistentEntity;
import dev.storh.spring.data.repository.query.StorhPartTreeQuery;

import org.springframework.data.repository.core.EntityInformation;
import org.springframework.data.repository.core.RepositoryCreationException;
import org.springframework.data.repository.core.RepositoryInformation;
import org.springframework.data.repository.core.RepositoryMetadata;
import org.springframework.data.repository.core.support.PersistentEntityInformation;
import org.springframework.data.repository.core.support.RepositoryFactorySupport;
import org.springframework.data.repository.query.DefaultParameters;
import org.springframework.data.repository.query.QueryLookupStrategy;
import org.springframework.data.repository.query.QueryLookupStrategy.Key;
import org.springframework.data.repository.query.QueryMethod;
import org.springframework.data.repository.query.ValueExpressionDelegate;
import org.springframework.util.Assert;

/**
 * Creates storh repositories: {@link SimpleStorhRepository} for the CRUD and paging methods and a
 * {@link StorhPartTreeQuery} per derived query method, parsed and checked when the repository is
 * created (application startup).
 * <p>
 * Repositories must declare a {@code String} id type and an entity with a {@code String} id
 * property; otherwise creation fails with a {@link RepositoryCreationException} or
 * {@link org.springframework.data.mapping.MappingException} naming the type. storh has no
 * declared (string) queries, so {@link Key#USE_DECLARED_QUERY} fails for every query method.
 */
public class StorhRepositoryFactory extends RepositoryFactorySupport {

	private final StorhOperations operations;

	/**
	 * @param operations the operations the repositories delegate to
	 */
	public StorhRepositoryFactory(StorhOperations operations) {
		Assert.notNull(operations, "'operations' must not be null");
		this.operations = operations;
	}

	/**
	 * @param metadata the repository's metadata
	 * @return the entity information of the repository's domain type
	 * @throws org.springframework.data.mapping.MappingException naming the type when it has no
	 * {@code String} id property
	 */
	@Override
	public EntityInformation<?, ?> getEntityInformation(RepositoryMetadata metadata) {
		return entityInformation(metadata.getDomainType());
	}

	@Override
	protected Object getTargetRepository(RepositoryInformation metadata) {
		return getTargetRepositoryViaReflection(metadata, getEntityInformation(metadata), this.operations);
	}

	private <T> EntityInformation<T, String> entityInformation(Class<T> domainClass) {
		@SuppressWarnings("unchecked")
		StorhPersistentEntity<T> entity = (StorhPersistentEntity<T>) this.operations.getConverter()
			.getRequiredEntity(domainClass);
		return new PersistentEntityInformation<>(entity);
	}

	@Override
	protected Class<?> getRepositoryBaseClass(RepositoryMetadata metadata) {
		return SimpleStorhRepository.class;
	}

	@Override
	protected void validate(RepositoryMetadata metadata) {
		if (metadata.getIdType() != String.class) {
			throw new RepositoryCreationException("Repository " + metadata.getRepositoryInterface().getName()
					+ " declares id type " + metadata.getIdType().getName()
					+ "; storh ids are UUIDv7 strings, declare StorhRepository<"
					+ metadata.getDomainType().getSimpleName() + ", String>", metadata.getRepositoryInterface());
		}
		entityInformation(metadata.getDomainType());
	}

	@Override
	protected Optional<QueryLookupStrategy> getQueryLookupStrategy(Key key,
			ValueExpressionDelegate valueExpressionDelegate) {
		return Optional.of((method, metadata, projectionFactory, namedQueries) -> {
			if (key == Key.USE_DECLARED_QUERY) {
				throw new RepositoryCreationException("Query method " + metadata.getRepositoryInterface().getName()
						+ "." + method.getName() + ": storh has no declared queries and the query lookup strategy is "
						+ "USE_DECLARED_QUERY; use CREATE or CREATE_IF_NOT_FOUND to derive queries from method names",
						metadata.getRepositoryInterface());
			}
			return new StorhPartTreeQuery(method, new QueryMethod(method, metadata, projectionFactory, DefaultParameters::new),
					this.operations);
		});
	}

}
