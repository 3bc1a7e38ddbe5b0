package dev.storh.spring.boot.autoconfigure.dashboard;

import java.nio.file.Path;
import java.time.Duration;

import dev.storh.spring.boot.actuate.StorhDashboard;
import dev.storh.spring.boot.autoconfigure.StorhAutoConfiguration;
import dev.storh.spring.boot.autoconfigure.endpoint.StorhEndpointAutoConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * {@link StorhDashboardAutoConfiguration}: when the dashboard is served, where, and whether it
 * offers the endpoint's write operations; {@link StorhDashboard}'s answers.
 */
class StorhDashboardAutoConfigurationTests {

    private static final AutoConfigurations CONFIGURATIONS = AutoConfigurations.of(StorhAutoConfiguration.class,
            StorhEndpointAutoConfiguration.class, EndpointAutoConfiguration.class, WebEndpointAutoConfiguration.class,
            StorhDashboardAutoConfiguration.class);

    @TempDir
    Path root;

    private WebApplicationContextRunner contextRunner() {
        return new WebApplicationContextRunner().withConfiguration(CONFIGURATIONS)
            .withPropertyValues("storh.root=" + this.root, "management.endpoints.web.exposure.include=storh");
    }

    @Test
    void servedReadOnlyAtStorhWhenTheEndpointIsExposed() {
        contextRunner().run((context) -> {
            assertThat(context).hasSingleBean(StorhDashboard.class).hasBean("storhDashboardRoutes");
            StorhDashboard dashboard = context.getBean(StorhDashboard.class);
            assertThat(dashboard.path()).isEqualTo("/storh");
            assertThat(dashboard.writable()).isFalse();
        });
    }

    @Test
    void offersWriteOperationsOnlyWhenTheEndpointAllowsThem() {
        contextRunner().withPropertyValues("management.endpoint.storh.access=UNRESTRICTED")
            .run((context) -> assertThat(context.getBean(StorhDashboard.class).writable()).isTrue());
        contextRunner().withPropertyValues("management.endpoint.storh.access=UNRESTRICTED",
                "management.endpoints.access.max-permitted=READ_ONLY")
            .run((context) -> assertThat(context.getBean(StorhDashboard.class).writable()).isFalse());
    }

    @Test
    void pathAndRefreshAreProperties() throws Exception {
        contextRunner().withPropertyValues("storh.dashboard.path=/ops/files", "storh.dashboard.refresh=5s",
                "management.endpoints.web.base-path=/manage")
            .run((context) -> {
                StorhDashboard dashboard = context.getBean(StorhDashboard.class);
                assertThat(dashboard.path()).isEqualTo("/ops/files");
                MockMvc mvc = MockMvcBuilders.routerFunctions(dashboard.routes()).build();
                mvc.perform(get("/ops/files"))
                    .andExpect(status().isOk())
                    .andExpect(content().string(org.hamcrest.Matchers.containsString(
                            "data-endpoint=\"/manage/storh\" data-writable=\"false\" data-refresh-ms=\"5000\"")))
                    .andExpect(content().string(
                            org.hamcrest.Matchers.containsString("<script src=\"/ops/files/dashboard.js\" defer>")));
            });
    }

    @Test
    void offWhenDisabledNotExposedOnAnotherPortOrNotAWebApp() {
        contextRunner().withPropertyValues("storh.dashboard.enabled=false")
            .run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(StorhDashboard.class));
        new WebApplicationContextRunner().withConfiguration(CONFIGURATIONS)
            .withPropertyValues("storh.root=" + this.root)
            .run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(StorhDashboard.class));
        contextRunner().withPropertyValues("management.endpoints.web.exposure.include=health")
            .run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(StorhDashboard.class));
        contextRunner().withPropertyValues("management.server.port=0")
            .run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(StorhDashboard.class));
        new ApplicationContextRunner().withConfiguration(CONFIGURATIONS)
            .withPropertyValues("storh.root=" + this.root, "management.endpoints.web.exposure.include=storh")
            .run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(StorhDashboard.class));
        contextRunner().withClassLoader(new FilteredClassLoader("org.springframework.web.servlet.function"))
            .run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(StorhDashboard.class));
    }

    @Test
    void aMalformedPathFailsNamingTheProperty() {
        contextRunner().withPropertyValues("storh.dashboard.path=storh/")
            .run((context) -> assertThat(context).hasFailed()
                .getFailure()
                .rootCause()
                .hasMessageContaining("storh.dashboard.path")
                .hasMessageContaining("'storh/'"));
        assertThatIllegalArgumentException()
            .isThrownBy(() -> new StorhDashboard("/storh", "/actuator/storh", false, Duration.ofMillis(100)))
            .withMessageContaining("storh.dashboard.refresh");
    }

    @Test
    void servesThePageAndItsAssetsFromTheJarWithAStrictContentSecurityPolicy() throws Exception {
        StorhDashboard dashboard = new StorhDashboard("/storh", "/actuator/storh", true, Duration.ofSeconds(2));
        MockMvc mvc = MockMvcBuilders.routerFunctions(dashboard.routes()).build();
        mvc.perform(get("/storh"))
            .andExpect(status().isOk())
            .andExpect(header().string("Content-Type", "text/html;charset=UTF-8"))
            .andExpect(header().string("Content-Security-Policy", org.hamcrest.Matchers.containsString("script-src 'self'")))
            .andExpect(content().string(org.hamcrest.Matchers.containsString(
                    "data-endpoint=\"/actuator/storh\" data-writable=\"true\" data-refresh-ms=\"2000\"")))
            .andExpect(content().string(org.hamcrest.Matchers.not(org.hamcrest.Matchers.containsString("{{"))))
            .andExpect(content().string(org.hamcrest.Matchers.not(org.hamcrest.Matchers.containsString("http"))));
        mvc.perform(get("/storh/dashboard.js"))
            .andExpect(status().isOk())
            .andExpect(header().string("Content-Type", "text/javascript;charset=UTF-8"))
            .andExpect(content().string(org.hamcrest.Matchers.containsString("data-count")));
        mvc.perform(get("/storh/dashboard.css"))
            .andExpect(status().isOk())
            .andExpect(header().string("Content-Type", "text/css;charset=UTF-8"));
        mvc.perform(get("/storh/other")).andExpect(status().isNotFound());
    }

}
