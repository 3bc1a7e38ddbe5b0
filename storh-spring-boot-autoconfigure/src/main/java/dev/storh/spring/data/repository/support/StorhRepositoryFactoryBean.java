package dev.storh.spring.data.repository.support;

import dev.storh.spring.data.core.StorhOperations;

import org.springframework.data.repository.Repository;
import org.springframework.data.repository.core.support.RepositoryFactoryBeanSupport;
import org.springframework.data.repository.core.support.RepositoryFactorySupport;
import org.springframework.util.Assert;

/**
 * Spring {@code FactoryBean} creating one storh repository; registered for each repository
 * interface by {@code @EnableStorhRepositories} or the auto-configuration, with the
 * {@link StorhOperations} bean named by {@code storhTemplateRef} (default {@code storhTemplate}).
 *
 * @param <T> the repository type
 * @param <S> the entity type
 * @param <ID> the id type, {@code String}
 */
public class StorhRepositoryFactoryBean<T extends Repository<S, ID>, S, ID>
        extends RepositoryFactoryBeanSupport<T, S, ID> {

    private StorhOperations operations;

    /**
     * @param repositoryInterface the repository interface
     */
    public StorhRepositoryFactoryBean(Class<? extends T> repositoryInterface) {
        super(repositoryInterface);
    }

    /**
     * @param operations the operations the repository delegates to; its mapping context becomes
     * the repository's
     */
    public void setStorhOperations(StorhOperations operations) {
        Assert.notNull(operations, "'operations' must not be null");
        this.operations = operations;
        setMappingContext(operations.getMappingContext());
    }

    @Override
    protected RepositoryFactorySupport createRepositoryFactory() {
        return new StorhRepositoryFactory(this.operations);
    }

    /**
     * @throws IllegalStateException when no {@link StorhOperations} was set
     */
    @Override
    public void afterPropertiesSet() {
        Assert.state(this.operations != null, () -> "No StorhOperations set for repository "
                + getObjectType().getName() + "; check @EnableStorhRepositories(storhTemplateRef)");
        super.afterPropertiesSet();
    }

}
