package dev.storh.spring.boot.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Reports an {@link InvalidStorhPropertyException} at startup with the property to fix, its value
 * and the reason, instead of a stack trace. Registered in {@code META-INF/spring.factories}.
 */
class InvalidStorhPropertyFailureAnalyzer extends AbstractFailureAnalyzer<InvalidStorhPropertyException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, InvalidStorhPropertyException cause) {
        String description = "The storh property '" + cause.getProperty() + "' has the invalid value '"
                + cause.getValue() + "': " + cause.getReason();
        String action = "Update the property '" + cause.getProperty() + "' in your application's configuration "
                + "(application.yml, application.properties or the environment).";
        return new FailureAnalysis(description, action, cause);
    }

}
