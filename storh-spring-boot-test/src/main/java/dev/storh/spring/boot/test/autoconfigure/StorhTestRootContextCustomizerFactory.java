package dev.storh.spring.boot.test.autoconfigure;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.Map;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.core.annotation.MergedAnnotations.SearchStrategy;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.MergedContextConfiguration;
import org.springframework.test.context.support.TestPropertySourceUtils;

/**
 * Gives each {@link StorhTest} context a fresh temporary {@code storh.root}
 * ({@code storh-test-*} in the system temp folder), deleted after the context's beans are
 * destroyed (so the stores are closed first). The temporary root has lower precedence than the
 * test's own properties and higher than the application's configuration files. Registered in
 * {@code META-INF/spring.factories}; does nothing for other tests.
 */
class StorhTestRootContextCustomizerFactory implements ContextCustomizerFactory {

    private static final String STORH_TEST = "dev.storh.spring.boot.test.autoconfigure.StorhTest";

    @Override
    public ContextCustomizer createContextCustomizer(Class<?> testClass,
            List<ContextConfigurationAttributes> configAttributes) {
        boolean storhTest = MergedAnnotations.from(testClass, SearchStrategy.TYPE_HIERARCHY).isPresent(STORH_TEST);
        return storhTest ? new TemporaryRootCustomizer() : null;
    }

    /**
     * Adds the temporary root; equal to every other instance, so contexts stay cacheable.
     */
    static final class TemporaryRootCustomizer implements ContextCustomizer {

        static final String PROPERTY_SOURCE_NAME = "storhTestRoot";

        @Override
        public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration config) {
            Path root;
            try {
                root = Files.createTempDirectory("storh-test-");
            }
            catch (IOException ex) {
                throw new UncheckedIOException("Could not create a temporary storh root", ex);
            }
            MapPropertySource source = new MapPropertySource(PROPERTY_SOURCE_NAME,
                    Map.of("storh.root", root.toString()));
            MutablePropertySources sources = context.getEnvironment().getPropertySources();
            String inlined = TestPropertySourceUtils.INLINED_PROPERTIES_PROPERTY_SOURCE_NAME;
            if (sources.contains(inlined)) {
                sources.addAfter(inlined, source);
            }
            else {
                sources.addFirst(source);
            }
            if (context.getBeanFactory() instanceof DefaultListableBeanFactory beanFactory) {
                beanFactory.registerDisposableBean("storhTestRoot", new TemporaryRoot(root));
            }
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof TemporaryRootCustomizer;
        }

        @Override
        public int hashCode() {
            return TemporaryRootCustomizer.class.hashCode();
        }

    }

    /**
     * Deletes the temporary root when the context is closed.
     */
    record TemporaryRoot(Path root) implements DisposableBean {

        @Override
        public void destroy() throws IOException {
            if (!Files.exists(this.root)) {
                return;
            }
            Files.walkFileTree(this.root, new SimpleFileVisitor<>() {

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.deleteIfExists(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path dir, IOException ex) throws IOException {
                    Files.deleteIfExists(dir);
                    return FileVisitResult.CONTINUE;
                }

            });
        }

    }

}
