/**
 * Derived queries: repository method names parsed by Spring Data's {@code PartTree} into
 * {@link dev.storh.spring.data.core.query.StorhQuery} objects.
 */
package dev.storh.spring.data.repository.query;
