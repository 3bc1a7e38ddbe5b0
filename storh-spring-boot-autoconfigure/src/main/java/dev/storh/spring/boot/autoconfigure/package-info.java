/**
 * Spring Boot auto-configuration for storh: properties, the template and repositories.
 */
package dev.storh.spring.boot.autoconfigure;
