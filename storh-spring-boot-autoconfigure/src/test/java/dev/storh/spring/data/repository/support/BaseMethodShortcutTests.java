package dev.storh.spring.data.repository.support;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.storh.spring.data.core.StorhTemplate;
import dev.storh.spring.data.repository.StorhRepository;
import dev.storh.spring.sample.cities.City;
import dev.storh.spring.sample.cities.CityRepository;
import org.aopalliance.intercept.MethodInterceptor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.data.repository.core.support.RepositoryComposition.RepositoryFragments;
import org.springframework.data.repository.core.support.RepositoryMethodInvocationListener;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A base-class method of a repository ({@code findById}, {@code save}, {@code count}) goes
 * straight from the proxy to {@link SimpleStorhRepository}, with every post-processor's advice
 * still run; a fragment's own implementation of such a method, derived queries and invocation
 * listeners keep Spring Data's path.
 */
class BaseMethodShortcutTests {

    @TempDir
    Path root;

    private final List<String> reached = new CopyOnWriteArrayList<>();

    private StorhTemplate recording;

    @AfterEach
    void close() {
        if (this.recording != null) {
            this.recording.close();
        }
    }

    /** A template remembering, per call, whether Spring Data's composition layer was on the stack. */
    private StorhTemplate recordingTemplate() {
        this.recording = new StorhTemplate(this.root) {
            @Override
            public <T> Optional<T> findById(String id, Class<T> type) {
                record("findById");
                return super.findById(id, type);
            }

            @Override
            public <T> T save(T entity) {
                record("save");
                return super.save(entity);
            }

            @Override
            public long count(Class<?> type) {
                record("count");
                return super.count(type);
            }
        };
        return this.recording;
    }

    private void record(String operation) {
        boolean composed = Arrays.stream(new Throwable().getStackTrace())
            .anyMatch((frame) -> frame.getClassName().startsWith(
                    "org.springframework.data.repository.core.support.RepositoryComposition"));
        this.reached.add(operation + (composed ? " through Spring Data's composition" : " directly"));
    }

    @Test
    void baseMethodsGoStraightToTheTargetAndEveryAdviceStillRuns() {
        StorhRepositoryFactory factory = new StorhRepositoryFactory(recordingTemplate());
        List<String> advised = new ArrayList<>();
        factory.addRepositoryProxyPostProcessor((proxy, information) -> proxy.addAdvice((MethodInterceptor) (call) -> {
            advised.add(call.getMethod().getName());
            return call.proceed();
        }));
        CityRepository cities = factory.getRepository(CityRepository.class);

        City saved = cities.save(City.of("Oslo", "NO", 709_000L, true));
        assertThat(cities.findById(saved.id())).contains(saved);
        assertThat(cities.count()).isEqualTo(1);
        assertThat(cities.countByCountry("NO")).isEqualTo(1);

        assertThat(this.reached).containsExactly("save directly", "findById directly", "count directly");
        assertThat(advised).containsExactly("save", "findById", "count", "countByCountry");
    }

    @Test
    void withAnInvocationListenerEveryCallTakesSpringDatasPathAndIsReported() {
        StorhRepositoryFactory factory = new StorhRepositoryFactory(recordingTemplate());
        List<String> reported = new CopyOnWriteArrayList<>();
        factory.addInvocationListener((RepositoryMethodInvocationListener) (invocation) -> reported
            .add(invocation.getMethod().getName() + " " + invocation.getResult().getState()));
        CityRepository cities = factory.getRepository(CityRepository.class);

        City saved = cities.save(City.of("Oslo", "NO", 709_000L, true));
        cities.findById(saved.id());

        assertThat(this.reached).containsExactly("save through Spring Data's composition",
                "findById through Spring Data's composition");
        assertThat(reported).containsExactly("save SUCCESS", "findById SUCCESS");
    }

    /** A repository whose fragment implements {@code findById} itself. */
    interface FixedCityRepository extends StorhRepository<City, String>, FixedFindById {

        @Override
        Optional<City> findById(String id);

    }

    /** The fragment's interface. */
    interface FixedFindById {

        Optional<City> findById(String id);

    }

    @Test
    void aFragmentImplementingABaseMethodIsStillCalled() {
        StorhRepositoryFactory factory = new StorhRepositoryFactory(recordingTemplate());
        City fixed = new City("0190d0a1-0000-7000-8000-000000000000", "Fixed", "XX", 1L, false);
        FixedFindById fragment = (id) -> Optional.of(fixed);
        FixedCityRepository cities = factory.getRepository(FixedCityRepository.class,
                RepositoryFragments.just(fragment));

        City saved = cities.save(City.of("Oslo", "NO", 709_000L, true));

        assertThat(cities.findById(saved.id())).contains(fixed);
        assertThat(cities.count()).isEqualTo(1);
        assertThat(this.reached).containsExactly("save directly", "count directly");
    }

}
