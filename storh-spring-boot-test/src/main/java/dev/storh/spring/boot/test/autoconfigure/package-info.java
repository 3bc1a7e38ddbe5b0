/**
 * The {@link dev.storh.spring.boot.test.autoconfigure.StorhTest @StorhTest} test slice: storh
 * beans and repositories only, on a temporary storage root.
 */
package dev.storh.spring.boot.test.autoconfigure;
