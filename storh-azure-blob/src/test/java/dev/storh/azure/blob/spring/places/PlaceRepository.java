package dev.storh.azure.blob.spring.places;

import dev.storh.spring.data.repository.StorhRepository;
import java.util.List;

/** The places, with one derived query. */
public interface PlaceRepository extends StorhRepository<Place, String> {

    /**
     * @param name a name
     * @return the places of that name
     */
    List<Place> findByName(String name);
}
