package dev.storh.spring.boot.autoconfigure.dashboard;

import dev.storh.spring.boot.actuate.StorhDashboard;
import dev.storh.spring.boot.actuate.StorhEndpoint;
import dev.storh.spring.boot.autoconfigure.endpoint.StorhEndpointAutoConfiguration;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.autoconfigure.endpoint.expose.EndpointExposure;
import org.springframework.boot.actuate.autoconfigure.web.server.ConditionalOnManagementPort;
import org.springframework.boot.actuate.autoconfigure.web.server.ManagementPortType;
import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.EndpointAccessResolver;
import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.endpoint.web.PathMappedEndpoints;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.ServerResponse;

/**
 * Auto-configuration of the storh dashboard ({@link StorhDashboard}) at
 * {@code storh.dashboard.path} (default {@code /storh}): in a servlet web application, when the
 * {@code storh} endpoint is available (enabled and exposed over HTTP) on the application's own
 * port, unless {@code storh.dashboard.enabled=false}. The page shows the endpoint's write
 * operations only when {@code management.endpoint.storh.access} (with
 * {@code management.endpoints.access.*}) allows them. Backs off when the application defines its
 * own {@link StorhDashboard}.
 */
@AutoConfiguration(after = StorhEndpointAutoConfiguration.class,
        afterName = "org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointAutoConfiguration")
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass(name = { "org.springframework.web.servlet.function.RouterFunction",
    "org.springframework.boot.actuate.endpoint.annotation.Endpoint",
    "org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint" })
@ConditionalOnBooleanProperty(name = "storh.dashboard.enabled", matchIfMissing = true)
@ConditionalOnBean(StorhEndpoint.class)
@ConditionalOnAvailableEndpoint(endpoint = StorhEndpoint.class, exposure = EndpointExposure.WEB)
@ConditionalOnManagementPort(ManagementPortType.SAME)
@EnableConfigurationProperties(StorhDashboardProperties.class)
public final class StorhDashboardAutoConfiguration {

    private static final EndpointId STORH = EndpointId.of("storh");

    @Bean
    @ConditionalOnMissingBean
    StorhDashboard storhDashboard(StorhDashboardProperties properties, PathMappedEndpoints endpoints,
            ObjectProvider<EndpointAccessResolver> access) {
        String endpointPath = endpoints.getPath(STORH);
        if (endpointPath == null) {
            endpointPath = endpoints.getBasePath() + "/storh";
        }
        Access resolved = access.getIfAvailable(() -> (id, defaultAccess) -> defaultAccess)
            .accessFor(STORH, Access.READ_ONLY);
        return new StorhDashboard(properties.path(), endpointPath, resolved == Access.UNRESTRICTED,
                properties.refresh());
    }

    @Bean
    RouterFunction<ServerResponse> storhDashboardRoutes(StorhDashboard storhDashboard) {
        return storhDashboard.routes();
    }

}
