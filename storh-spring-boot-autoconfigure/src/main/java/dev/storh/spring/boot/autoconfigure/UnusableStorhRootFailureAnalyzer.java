package dev.storh.spring.boot.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Reports an {@link UnusableStorhRootException} at startup with the folder, what is wrong with it
 * and what to change, instead of the bean creation chain of whichever bean touched storage
 * first. Registered in {@code META-INF/spring.factories}.
 */
class UnusableStorhRootFailureAnalyzer extends AbstractFailureAnalyzer<UnusableStorhRootException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, UnusableStorhRootException cause) {
        String description = "storh cannot keep its data in " + cause.getFolder() + ": " + cause.getProblem() + ".";
        String action = "Set 'storh.root' (and 'storh.namespace', if used) to a folder this process can create "
                + "and write, e.g. storh.root=/srv/app/storh-data, or fix the path: remove or move the file "
                + "that stands in its way, or grant the process write permission on it.";
        return new FailureAnalysis(description, action, cause);
    }

}
