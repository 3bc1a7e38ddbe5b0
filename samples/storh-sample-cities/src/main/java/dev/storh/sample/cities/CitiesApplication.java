package dev.storh.sample.cities;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A Spring Boot web app that keeps 171,075 GeoNames places in storh files, with no database
 * server: the only storage dependency is {@code storh-spring-boot-starter}.
 */
@SpringBootApplication
public class CitiesApplication {

    /**
     * @param args Spring Boot arguments, e.g. {@code --storh.root=/srv/cities}
     */
    public static void main(String[] args) {
        SpringApplication.run(CitiesApplication.class, args);
    }
}
