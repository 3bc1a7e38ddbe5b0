package dev.storh.spring.data.core.event;

import org.springframework.beans.factory.ObjectFactory;
import org.springframework.core.Ordered;
import org.springframework.data.auditing.IsNewAwareAuditingHandler;
import org.springframework.util.Assert;

/**
 * Sets {@code @CreatedDate}, {@code @LastModifiedDate}, {@code @CreatedBy} and
 * {@code @LastModifiedBy} before an entity is saved, through Spring Data's
 * {@link IsNewAwareAuditingHandler}: an entity is new when its {@code @Version} is unset (or
 * {@code 0} for a primitive), or, without a version, when its id is {@code null}. Registered by
 * {@code @EnableStorhAuditing}. Runs first among the callbacks ({@code order} 100).
 */
public class AuditingEntityCallback implements BeforeConvertCallback<Object>, Ordered {

    private final ObjectFactory<IsNewAwareAuditingHandler> auditingHandlerFactory;

    /**
     * @param auditingHandlerFactory supplies the handler lazily, so the mapping context is created
     * only when the first entity is saved
     */
    public AuditingEntityCallback(ObjectFactory<IsNewAwareAuditingHandler> auditingHandlerFactory) {
        Assert.notNull(auditingHandlerFactory, "'auditingHandlerFactory' must not be null");
        this.auditingHandlerFactory = auditingHandlerFactory;
    }

    @Override
    public Object onBeforeConvert(Object entity, String collection) {
        return this.auditingHandlerFactory.getObject().markAudited(entity);
    }

    @Override
    public int getOrder() {
        return 100;
    }

}
