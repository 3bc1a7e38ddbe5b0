package dev.storh.spring.sample.cities;

import dev.storh.spring.data.mapping.Document;
import dev.storh.spring.data.mapping.Indexed;

import org.springframework.data.annotation.Id;

/**
 * A Java record entity with an explicit {@code @Id}; nullable wrappers so that missing values can
 * be tested.
 */
@Document(collection = "cities")
public record City(@Id String id, @Indexed(range = true) String name, @Indexed String country,
        @Indexed(range = true) Long population, Boolean coastal) {

    public static City of(String name, String country, Long population, Boolean coastal) {
        return new City(null, name, country, population, coastal);
    }

    public City withPopulation(Long newPopulation) {
        return new City(this.id, this.name, this.country, newPopulation, this.coastal);
    }

}
