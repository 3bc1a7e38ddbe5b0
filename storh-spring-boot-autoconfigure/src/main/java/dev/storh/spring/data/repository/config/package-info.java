/**
 * Configuration of storh repositories: {@link dev.storh.spring.data.repository.config.EnableStorhRepositories}
 * and the Spring Data configuration extension behind it.
 */
package dev.storh.spring.data.repository.config;
