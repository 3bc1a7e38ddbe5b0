/**
 * Mapping of Java records and POJOs onto storh collections: {@link dev.storh.spring.data.mapping.Document},
 * {@link dev.storh.spring.data.mapping.Indexed} and the Spring Data mapping context that reads them.
 */
package dev.storh.spring.data.mapping;
