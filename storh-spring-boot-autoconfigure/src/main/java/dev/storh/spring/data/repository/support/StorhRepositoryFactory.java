package dev.storh.spring.data.repository.support;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.storh.query.QueryPlan;
import dev.storh.spring.data.core.StorhOperations;
import dev.storh.spring.data.mapping.StorhPersistentEntity;
import dev.storh.spring.data.repository.query.Query;
import dev.storh.spring.data.repository.query.StorhJsonQuery;
import dev.storh.spring.data.repository.query.StorhPartTreeQuery;

import org.springframework.aop.target.SingletonTargetSource;
import org.springframework.data.repository.core.EntityInformation;
import org.springframework.data.repository.core.RepositoryCreationException;
import org.springframework.data.repository.core.RepositoryInformation;
import org.springframework.data.repository.core.RepositoryMetadata;
import org.springframework.data.repository.core.support.AbstractRepositoryMetadata;
import org.springframework.data.repository.core.support.PersistentEntityInformation;
import org.springframework.data.repository.core.support.RepositoryFactorySupport;
import org.springframework.data.repository.core.support.RepositoryMethodInvocationListener;
import org.springframework.data.repository.core.support.RepositoryProxyPostProcessor;
import org.springframework.data.repository.query.DefaultParameters;
import org.springframework.data.repository.query.QueryLookupStrategy;
import org.springframework.data.repository.query.QueryLookupStrategy.Key;
import org.springframework.data.repository.query.QueryMethod;
import org.springframework.data.projection.SpelAwareProxyProjectionFactory;
import org.springframework.data.repository.query.ValueExpressionDelegate;
import org.springframework.util.Assert;
import org.springframework.util.ClassUtils;

/**
 * Creates storh repositories: {@link SimpleStorhRepository} for the CRUD and paging methods and a
 * {@link StorhPartTreeQuery} per derived query method, parsed and checked when the repository is
 * created (application startup).
 * <p>
 * Repositories must declare the id type of the entity's id property, {@code String} or
 * {@code java.util.UUID}; otherwise creation fails with a {@link RepositoryCreationException} or
 * {@link org.springframework.data.mapping.MappingException} naming the type. storh has no
 * declared (string) queries, so {@link Key#USE_DECLARED_QUERY} fails for every query method.
 * <p>
 * Proxy post-processors added to this factory run in the order added; after them, a call of a
 * base-class method (such as {@code findById} or {@code save}) goes straight to the repository's
 * target unless an invocation listener is registered (see {@code BaseMethodShortcut}).
 */
public class StorhRepositoryFactory extends RepositoryFactorySupport {

    private final StorhOperations operations;

    private final List<RepositoryProxyPostProcessor> postProcessors = new CopyOnWriteArrayList<>();

    private volatile boolean listening;

    /**
     * @param operations the operations the repositories delegate to
     */
    public StorhRepositoryFactory(StorhOperations operations) {
        Assert.notNull(operations, "'operations' must not be null");
        this.operations = operations;
        super.addRepositoryProxyPostProcessor((factory, information) -> {
            for (RepositoryProxyPostProcessor processor : this.postProcessors) {
                processor.postProcess(factory, information);
            }
            if (factory.getTargetSource() instanceof SingletonTargetSource target) {
                factory.addAdvice(new BaseMethodShortcut(target.getTarget(), information, () -> this.listening));
            }
        });
    }

    /**
     * Adds a post-processor; each runs, in the order added, before the base-method shortcut is
     * added, so the advice it adds runs on every call.
     * @param processor the post-processor
     */
    @Override
    public void addRepositoryProxyPostProcessor(RepositoryProxyPostProcessor processor) {
        Assert.notNull(processor, "RepositoryProxyPostProcessor must not be null");
        this.postProcessors.add(processor);
    }

    /**
     * Adds an invocation listener; from then on every call of a repository of this factory
     * takes Spring Data's invoker, which reports to it.
     * @param listener the listener
     */
    @Override
    public void addInvocationListener(RepositoryMethodInvocationListener listener) {
        super.addInvocationListener(listener);
        this.listening = true;
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
        Class<?> idType = this.operations.getConverter()
            .getRequiredEntity(metadata.getDomainType())
            .getRequiredDocumentIdProperty()
            .getType();
        if (metadata.getIdType() != idType) {
            throw new RepositoryCreationException("Repository " + metadata.getRepositoryInterface().getName()
                    + " declares id type " + metadata.getIdType().getName() + " but the id property of "
                    + metadata.getDomainType().getName() + " is a " + idType.getName() + "; declare StorhRepository<"
                    + metadata.getDomainType().getSimpleName() + ", " + idType.getSimpleName() + ">",
                    metadata.getRepositoryInterface());
        }
    }

    /**
     * Derive a repository query method as the repository would and explain how core runs it for
     * the given arguments (tests prove that derived queries are served from indexes).
     * @param repositoryInterface the repository interface
     * @param methodName the query method's name; when overloaded, the one whose parameters accept
     * {@code arguments} (count and types)
     * @param arguments the call's arguments, including any {@code Pageable}, {@code Sort} or
     * {@code Limit}
     * @return the plan, {@code index_scan} when indexes answer every OR group
     * @throws IllegalArgumentException when no such method exists
     * @throws org.springframework.data.repository.query.QueryCreationException when the method
     * cannot be derived
     */
    public QueryPlan explain(Class<?> repositoryInterface, String methodName, Object... arguments) {
        Method method = Arrays.stream(repositoryInterface.getMethods())
            .filter((m) -> m.getName().equals(methodName) && accepts(m, arguments))
            .findFirst()
            .orElseThrow(() -> new IllegalArgumentException("No method " + methodName + " with " + arguments.length
                    + " parameter(s) in " + repositoryInterface.getName()));
        RepositoryMetadata metadata = AbstractRepositoryMetadata.getMetadata(repositoryInterface);
        QueryMethod queryMethod = new QueryMethod(method, metadata, new SpelAwareProxyProjectionFactory(),
                DefaultParameters::new);
        return new StorhPartTreeQuery(method, queryMethod, this.operations).explain(arguments);
    }

    private static boolean accepts(Method method, Object[] arguments) {
        Class<?>[] types = method.getParameterTypes();
        if (types.length != arguments.length) {
            return false;
        }
        for (int i = 0; i < types.length; i++) {
            if (arguments[i] != null && !ClassUtils.isAssignableValue(types[i], arguments[i])) {
                return false;
            }
        }
        return true;
    }

    @Override
    protected Optional<QueryLookupStrategy> getQueryLookupStrategy(Key key,
            ValueExpressionDelegate valueExpressionDelegate) {
        return Optional.of((method, metadata, projectionFactory, namedQueries) -> {
            QueryMethod queryMethod = new QueryMethod(method, metadata, projectionFactory, DefaultParameters::new);
            if (method.isAnnotationPresent(Query.class)) {
                return new StorhJsonQuery(method, queryMethod, this.operations);
            }
            if (key == Key.USE_DECLARED_QUERY) {
                throw new RepositoryCreationException("Query method " + metadata.getRepositoryInterface().getName()
                        + "." + method.getName() + ": the method has no @Query and the query lookup strategy is "
                        + "USE_DECLARED_QUERY; declare one or use CREATE or CREATE_IF_NOT_FOUND to derive queries from method names",
                        metadata.getRepositoryInterface());
            }
            return new StorhPartTreeQuery(method, queryMethod, this.operations);
        });
    }

}
