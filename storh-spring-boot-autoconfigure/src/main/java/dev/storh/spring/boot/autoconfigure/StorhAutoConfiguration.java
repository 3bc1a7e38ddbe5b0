package dev.storh.spring.boot.autoconfigure;

import dev.storh.StorageRoot;
import dev.storh.doc.DocStore;
import dev.storh.spring.data.core.StorhEntityConverter;
import dev.storh.spring.data.core.StorhOperations;
import dev.storh.spring.data.core.StorhTemplate;
import dev.storh.spring.data.mapping.StorhMappingContext;

import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of storh's core beans: the {@link StorageRoot} ({@code storh.root}), the
 * {@link StorhMappingContext} and the {@link StorhTemplate} named {@code storhTemplate}, whose
 * collections folder is {@code storh.root} or, with {@code storh.namespace}, the namespace folder
 * below it. Entities are converted by a {@link StorhEntityConverter} over the application's
 * Jackson {@link JsonMapper} bean when there is one (so its settings and modules apply), copied
 * with {@code FAIL_ON_UNKNOWN_PROPERTIES} off so records written by a newer entity version still
 * read; otherwise over {@link StorhEntityConverter#defaultJsonMapper()}. Each bean backs off
 * when the application defines its own.
 */
@AutoConfiguration(afterName = "org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration")
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

	@Bean
	@ConditionalOnMissingBean
	StorhEntityConverter storhEntityConverter(StorhMappingContext mappingContext,
			ObjectProvider<JsonMapper> jsonMapper) {
		JsonMapper applicationMapper = jsonMapper.getIfUnique();
		JsonMapper mapper = (applicationMapper != null)
				? applicationMapper.rebuild().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build()
				: StorhEntityConverter.defaultJsonMapper();
		return new StorhEntityConverter(mappingContext, mapper);
	}

	@Bean(name = "storhTemplate")
	@ConditionalOnMissingBean(StorhOperations.class)
	StorhTemplate storhTemplate(StorageRoot storageRoot, StorhProperties properties,
			StorhEntityConverter converter) {
		return new StorhTemplate(properties.collectionsFolder(storageRoot), converter);
	}

}
