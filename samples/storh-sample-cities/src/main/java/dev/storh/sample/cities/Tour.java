package dev.storh.sample.cities;

import java.math.BigDecimal;
import java.time.Instant;

import dev.storh.spring.data.mapping.Document;
import dev.storh.spring.data.mapping.Indexed;
import org.springframework.data.annotation.CreatedDate;
import org.springframework.data.annotation.Id;
import org.springframework.data.annotation.LastModifiedDate;
import org.springframework.data.annotation.Version;

/**
 * A guided tour of a place, with a price in exact decimal money: stored as one JSONC file under
 * {@code <storh.root>/tours/data/<bucket>/<id>.jsonc}, the price as a plain JSON number with its
 * scale ({@code 19.990} stays {@code 19.990}). {@code price} has a range index, {@code cityId} an
 * equality index; {@code created} and {@code modified} are filled by auditing.
 */
@Document(collection = "tours")
public class Tour {

    /** UUIDv7, generated on the first save. */
    @Id
    public String id;

    /** Optimistic lock: 0 after the first save. */
    @Version
    public Long version;

    /** The place the tour visits. */
    @Indexed
    public String cityId;

    /** The tour's title. */
    public String title;

    /** The price, exact. */
    @Indexed(range = true)
    public BigDecimal price;

    /** When the tour was first saved. */
    @CreatedDate
    public Instant created;

    /** When the tour was last saved. */
    @LastModifiedDate
    public Instant modified;
}
