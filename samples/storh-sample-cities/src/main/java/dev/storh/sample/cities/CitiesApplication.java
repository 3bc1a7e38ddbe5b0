package dev.storh.sample.cities;

import dev.storh.spring.data.config.EnableStorhAuditing;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A Spring Boot web app that keeps 171,075 GeoNames places in storh files, with no database
 * server: the only storage dependency is {@code storh-spring-boot-starter}. Auditing fills the
 * created and modified dates of {@link Tour}s.
 */
@SpringBootApplication
@EnableStorhAuditing
public class CitiesApplication {

    /**
     * @param args Spring Boot arguments, e.g. {@code --storh.root=/srv/cities}
     */
    public static void main(String[] args) {
        SpringApplication.run(CitiesApplication.class, args);
    }
}
