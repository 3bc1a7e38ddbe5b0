package dev.storh.azure.blob.spring.places;

import dev.storh.spring.data.mapping.Document;
import org.springframework.data.annotation.Id;
import org.springframework.data.annotation.Version;

/**
 * A versioned place, stored in the collection {@code places}.
 *
 * @param id the record id
 * @param name the place's name
 * @param population people living there
 * @param version the optimistic-locking version
 */
@Document(collection = "places")
public record Place(@Id String id, String name, Long population, @Version Long version) {

    /**
     * @param name the name
     * @param population the population
     * @return a new, unsaved place
     */
    public static Place of(String name, long population) {
        return new Place(null, name, population, null);
    }

    /**
     * @param newPopulation the population
     * @return this place with another population, same version
     */
    public Place withPopulation(long newPopulation) {
        return new Place(this.id, this.name, newPopulation, this.version);
    }
}
