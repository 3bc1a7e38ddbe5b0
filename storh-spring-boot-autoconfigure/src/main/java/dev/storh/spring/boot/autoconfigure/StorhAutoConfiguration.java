package dev.storh.spring.boot.autoconfigure;

import dev.storh.StorageRoot;
import dev.storh.doc.DocStore;
import dev.storh.spring.data.core.StorhOperations;
import dev.storh.spring.data.core.StorhTemplate;
import dev.storh.spring.data.mapping.StorhMappingContext;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of storh's core beans: the {@link StorageRoot} ({@code storh.root}), the
 * {@link StorhMappingContext} and the {@link StorhTemplate} named {@code storhTemplate}, whose
 * collections folder is {@code storh.root} or, with {@code storh.namespace}, the namespace folder
 * below it. Each bean backs off when the application defines its own.
 */
@AutoConfiguration
@ConditionalOnClass({ DocStore.class, StorhTemplate.class })
@EnableConfigurationProperties(StorhProperties.class)
public final class StorhAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	StorageRoot storageRoot(StorhProperties properties) {
		return StorageRoot.at(properties.getRoot());
	}

	@Bean
	@ConditionalOnMissingBean
	StorhMappingContext storhMappingContext() {
		return new StorhMappingContext();
	}

	@Bean(name = "storhTemplate")
	@ConditionalOnMissingBean(StorhOperations.class)
	StorhTemplate storhTemplate(StorageRoot storageRoot, StorhProperties properties,
			StorhMappingContext mappingContext) {
		return new StorhTemplate(properties.collectionsFolder(storageRoot), mappingContext);
	}

}
