package dev.storh.spring.data.core.query;

import java.util.ArrayList;
import java.util.List;

import dev.storh.query.FieldPath;

import org.springframework.data.core.PropertyPath;

/**
 * Maps Spring Data property paths to core field paths, for derived queries, sorts and examples.
 * Stateless.
 */
public final class PropertyPaths {

    private PropertyPaths() {
    }

    /**
     * @param property a property path of the entity, such as {@code publisher.name}
     * @param idProperty the entity's id property name
     * @return the core field path: {@code id} for the top-level id property, else the property
     * names from the entity down (a collection of objects on the way is walked element by element
     * by core)
     */
    public static FieldPath toFieldPath(PropertyPath property, String idProperty) {
        if (!property.hasNext() && property.getSegment().equals(idProperty)) {
            return FieldPath.of("id");
        }
        List<String> segments = new ArrayList<>();
        for (PropertyPath p = property; p != null; p = p.next()) {
            segments.add(p.getSegment());
        }
        return new FieldPath(segments);
    }

}
