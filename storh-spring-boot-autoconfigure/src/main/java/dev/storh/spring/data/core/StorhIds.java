package dev.storh.spring.data.core;

import dev.storh.id.UuidV7;

import org.springframework.dao.InvalidDataAccessApiUsageException;

/**
 * The id rule of the template: record ids are UUIDv7 strings.
 */
final class StorhIds {

    private StorhIds() {
    }

    /**
     * @param id an id given by the caller
     * @param collection the collection it is meant for, for the message
     * @return the id
     * @throws InvalidDataAccessApiUsageException naming the id and collection when it is not a UUIDv7
     */
    static String check(String id, String collection) {
        if (!UuidV7.isValid(id)) {
            throw new InvalidDataAccessApiUsageException("Id '" + id + "' for collection '" + collection
                    + "' is not a valid UUIDv7 (36 characters like 018bcfe5-6800-7286-af1e-f6f686dbda0b, version 7); "
                    + "leave the id null to have one generated");
        }
        return id;
    }

}
