/** Sample application: GeoNames places over REST, stored with storh's Spring Boot starter. */
package dev.storh.sample.cities;
