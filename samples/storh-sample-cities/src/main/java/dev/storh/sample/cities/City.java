package dev.storh.sample.cities;

import dev.storh.spring.data.mapping.Document;
import dev.storh.spring.data.mapping.Indexed;
import org.springframework.data.annotation.Id;

/**
 * A place from the GeoNames gazetteer, stored as one JSONC file under
 * {@code <storh.root>/cities/data/<bucket>/<id>.jsonc}. Coordinates are kept as the strings the
 * data set carries. {@code country} has an equality index and {@code name} a range index, so the
 * repository's derived queries read index files instead of all 171k records.
 *
 * @param id UUIDv7, generated when a place is created
 * @param name place name, any Unicode
 * @param lat latitude as text
 * @param lng longitude as text
 * @param country ISO 3166-1 alpha-2 code
 * @param admin1 first-level administrative code
 * @param admin2 second-level administrative code, often empty
 */
@Document(collection = "cities")
public record City(@Id String id, @Indexed(range = true) String name, String lat, String lng, @Indexed String country,
        String admin1, String admin2) {
}
