package dev.storh.spring.sample.cities;

import java.util.List;

import dev.storh.spring.data.repository.StorhRepository;

public interface PersonRepository extends StorhRepository<Person, String> {

    List<Person> findByLastNameOrderByFirstName(String lastName);

    List<Person> findByAgeGreaterThanEqual(int age);

    List<Person> findByAge(int age);

    List<Person> findByAge(double age);

}
