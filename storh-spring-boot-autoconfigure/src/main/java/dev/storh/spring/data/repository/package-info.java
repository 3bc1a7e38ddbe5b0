/**
 * Spring Data repositories over storh collections: {@link dev.storh.spring.data.repository.StorhRepository}.
 */
package dev.storh.spring.data.repository;
