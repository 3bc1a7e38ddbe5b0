/**
 * Configuration annotations of storh's Spring Data support that are not about repositories:
 * {@link dev.storh.spring.data.config.EnableStorhAuditing}.
 */
package dev.storh.spring.data.config;
