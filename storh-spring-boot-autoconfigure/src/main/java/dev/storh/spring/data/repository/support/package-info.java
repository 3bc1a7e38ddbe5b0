/**
 * Repository implementation and factory beans that create storh repositories.
 */
package dev.storh.spring.data.repository.support;
