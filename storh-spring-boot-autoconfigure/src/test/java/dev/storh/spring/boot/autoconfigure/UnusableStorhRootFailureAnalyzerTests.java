package dev.storh.spring.boot.autoconfigure;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import dev.storh.spring.data.repository.config.EnableStorhRepositories;
import dev.storh.spring.sample.notes.NoteRepository;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.support.SpringFactoriesLoader;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An unusable {@code storh.root} fails startup with a failure analysis naming the path, what is
 * wrong with it and what to change, in a real context with a repository.
 */
class UnusableStorhRootFailureAnalyzerTests {

    @TempDir
    Path temp;

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(StorhAutoConfiguration.class))
        .withUserConfiguration(RepositoryConfig.class);

    @Test
    void aRegularFileAsRootIsNamedWithWhatToChange() throws Exception {
        Path file = Files.writeString(this.temp.resolve("storh-data"), "not a folder");
        FailureAnalysis analysis = analyzeStartup(file);
        assertThat(analysis.getDescription()).contains(file.toString()).contains("exists but is not a directory");
        assertThat(analysis.getAction()).contains("storh.root");
        assertThat(Files.readString(file)).isEqualTo("not a folder");
    }

    @Test
    void aRootBelowARegularFileIsNamedWithTheFileInTheWay() throws Exception {
        Path file = Files.writeString(this.temp.resolve("blocker"), "x");
        Path root = file.resolve("data/storh");
        FailureAnalysis analysis = analyzeStartup(root);
        assertThat(analysis.getDescription()).contains(root.toString())
            .contains("cannot be created: " + file + " is not a directory");
        assertThat(analysis.getAction()).contains("storh.root").contains("remove or move the file");
    }

    @Test
    void aUsableRootStartsAndIsNotCreatedBeforeTheFirstWrite() {
        Path root = this.temp.resolve("later/storh");
        this.contextRunner.withPropertyValues("storh.root=" + root).run((context) -> {
            assertThat(context).hasNotFailed();
            assertThat(this.temp.resolve("later")).doesNotExist();
        });
    }

    @Test
    @SuppressWarnings("deprecation")
    void theAnalyzerIsRegistered() {
        List<String> names = SpringFactoriesLoader.loadFactoryNames(FailureAnalyzer.class, getClass().getClassLoader());
        assertThat(names).contains(UnusableStorhRootFailureAnalyzer.class.getName());
    }

    private FailureAnalysis analyzeStartup(Path root) {
        FailureAnalysis[] analysis = new FailureAnalysis[1];
        this.contextRunner.withPropertyValues("storh.root=" + root).run((context) -> {
            assertThat(context).hasFailed();
            analysis[0] = new UnusableStorhRootFailureAnalyzer().analyze(context.getStartupFailure());
        });
        assertThat(analysis[0]).as("analysis").isNotNull();
        return analysis[0];
    }

    @Configuration(proxyBeanMethods = false)
    @EnableStorhRepositories(basePackageClasses = NoteRepository.class)
    static class RepositoryConfig {

    }

}
