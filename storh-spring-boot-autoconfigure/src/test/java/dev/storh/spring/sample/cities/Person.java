package dev.storh.spring.sample.cities;

import java.util.List;

/**
 * A mutable POJO entity whose id is the property named {@code id} (no annotation) and with no
 * {@code @Document}: stored in collection {@code person}.
 */
public class Person {

    private String id;

    private String firstName;

    private String lastName;

    private int age;

    private List<String> tags;

    public Person() {
    }

    public Person(String firstName, String lastName, int age, List<String> tags) {
        this.firstName = firstName;
        this.lastName = lastName;
        this.age = age;
        this.tags = tags;
    }

    public String getId() {
        return this.id;
    }

    public void setId(String id) {
        this.id = id;
    }

    public String getFirstName() {
        return this.firstName;
    }

    public void setFirstName(String firstName) {
        this.firstName = firstName;
    }

    public String getLastName() {
        return this.lastName;
    }

    public void setLastName(String lastName) {
        this.lastName = lastName;
    }

    public int getAge() {
        return this.age;
    }

    public void setAge(int age) {
        this.age = age;
    }

    public List<String> getTags() {
        return this.tags;
    }

    public void setTags(List<String> tags) {
        this.tags = tags;
    }

}
