package dev.storh.spring.boot.actuate;

import java.util.ArrayList;
import java.util.List;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.util.Assert;

/**
 * A health indicator of one target that collects the reasons for DOWN: UP without any, else DOWN
 * with the {@code reasons} detail (one sentence each) and a WARN log line naming the subject.
 *
 * @param <T> what is checked
 */
abstract class ReasonedHealthIndicator<T> extends AbstractHealthIndicator {

    private final Log logger;

    private final T target;

    /**
     * @param failureMessage the message when a check throws
     * @param owner the class whose logger reports DOWN
     * @param target what is checked
     * @param targetName the subclass constructor's parameter, named when {@code target} is null
     * @throws IllegalArgumentException when {@code target} is null
     */
    ReasonedHealthIndicator(String failureMessage, Class<?> owner, T target, String targetName) {
        super(failureMessage);
        Assert.notNull(target, () -> "'" + targetName + "' must not be null");
        this.logger = LogFactory.getLog(owner);
        this.target = target;
    }

    @Override
    protected final void doHealthCheck(Health.Builder builder) {
        List<String> reasons = new ArrayList<>();
        check(this.target, builder, reasons);
        if (reasons.isEmpty()) {
            builder.up();
        }
        else {
            this.logger.warn(subject(this.target) + " DOWN: " + reasons);
            builder.down().withDetail("reasons", reasons);
        }
    }

    /**
     * Adds the details and the reasons for DOWN.
     * @param target what is checked
     * @param builder the health being built
     * @param reasons where each DOWN cause goes
     */
    abstract void check(T target, Health.Builder builder, List<String> reasons);

    /**
     * @param target what is checked
     * @return what is DOWN, for the log line, e.g. {@code "storh listeners are"}
     */
    abstract String subject(T target);

}
