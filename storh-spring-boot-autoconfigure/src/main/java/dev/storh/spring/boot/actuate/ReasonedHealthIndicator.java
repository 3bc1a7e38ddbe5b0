package dev.storh.spring.boot.actuate;

import java.util.ArrayList;
import java.util.List;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * A health indicator that collects the reasons for DOWN: UP without any, else DOWN with the
 * {@code reasons} detail (one sentence each) and a WARN log line naming the subject.
 */
abstract class ReasonedHealthIndicator extends AbstractHealthIndicator {

    private final Log logger;

    /**
     * @param failureMessage the message when a check throws
     * @param owner the class whose logger reports DOWN
     */
    ReasonedHealthIndicator(String failureMessage, Class<?> owner) {
        super(failureMessage);
        this.logger = LogFactory.getLog(owner);
    }

    @Override
    protected final void doHealthCheck(Health.Builder builder) {
        List<String> reasons = new ArrayList<>();
        check(builder, reasons);
        if (reasons.isEmpty()) {
            builder.up();
        }
        else {
            this.logger.warn(subject() + " DOWN: " + reasons);
            builder.down().withDetail("reasons", reasons);
        }
    }

    /**
     * Adds the details and the reasons for DOWN.
     * @param builder the health being built
     * @param reasons where each DOWN cause goes
     */
    abstract void check(Health.Builder builder, List<String> reasons);

    /**
     * @return what is DOWN, for the log line, e.g. {@code "storh listeners are"}
     */
    abstract String subject();

}
