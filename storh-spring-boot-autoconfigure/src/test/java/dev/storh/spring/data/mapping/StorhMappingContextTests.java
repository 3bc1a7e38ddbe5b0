package dev.storh.spring.data.mapping;

import dev.storh.spring.sample.cities.City;
import dev.storh.spring.sample.cities.Person;
import dev.storh.spring.sample.notes.Note;
import org.junit.jupiter.api.Test;

import org.springframework.data.annotation.Id;
import org.springframework.data.mapping.MappingException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class StorhMappingContextTests {

    private final StorhMappingContext context = new StorhMappingContext();

    @Test
    void collectionComesFromDocumentOrTheUncapitalisedSimpleName() {
        assertThat(this.context.getRequiredPersistentEntity(City.class).getCollection()).isEqualTo("cities");
        assertThat(this.context.getRequiredPersistentEntity(City.class).isDocument()).isTrue();
        assertThat(this.context.getRequiredPersistentEntity(Note.class).getCollection()).isEqualTo("note");
        assertThat(this.context.getRequiredPersistentEntity(Person.class).getCollection()).isEqualTo("person");
        assertThat(this.context.getRequiredPersistentEntity(Person.class).isDocument()).isFalse();
        assertThat(this.context.getRequiredPersistentEntity(URLHolder.class).getCollection()).isEqualTo("uRLHolder");
    }

    @Test
    void idIsTheIdAnnotationOrThePropertyNamedId() {
        assertThat(this.context.getRequiredPersistentEntity(City.class).getRequiredDocumentIdProperty().getName())
            .isEqualTo("id");
        assertThat(this.context.getRequiredPersistentEntity(Person.class).getRequiredDocumentIdProperty().getName())
            .isEqualTo("id");
        StorhPersistentEntity<?> keyed = this.context.getRequiredPersistentEntity(Keyed.class);
        assertThat(keyed.getRequiredDocumentIdProperty().getName()).isEqualTo("key");
        assertThat(keyed.getRequiredPersistentProperty("id").isIdProperty()).isFalse();
    }

    @Test
    void indexedDeclarationsAreRecorded() {
        StorhPersistentEntity<?> city = this.context.getRequiredPersistentEntity(City.class);
        StorhPersistentProperty country = city.getRequiredPersistentProperty("country");
        StorhPersistentProperty name = city.getRequiredPersistentProperty("name");
        StorhPersistentProperty coastal = city.getRequiredPersistentProperty("coastal");
        StorhPersistentProperty slug = this.context.getRequiredPersistentEntity(Keyed.class)
            .getRequiredPersistentProperty("slug");

        assertThat(country.isIndexed()).isTrue();
        assertThat(country.isRangeIndex()).isFalse();
        assertThat(country.isUniqueIndex()).isFalse();
        assertThat(name.isRangeIndex()).isTrue();
        assertThat(coastal.isIndexed()).isFalse();
        assertThat(coastal.isRangeIndex()).isFalse();
        assertThat(slug.isUniqueIndex()).isTrue();
    }

    @Test
    void idThatIsNotAStringFailsNamingTheType() {
        StorhPersistentEntity<?> entity = this.context.getRequiredPersistentEntity(NumericId.class);

        assertThatExceptionOfType(MappingException.class).isThrownBy(entity::getRequiredDocumentIdProperty)
            .withMessageContaining(NumericId.class.getName())
            .withMessageContaining("java.lang.Long")
            .withMessageContaining("java.lang.String");
    }

    @Test
    void missingIdFailsNamingTheType() {
        StorhPersistentEntity<?> entity = this.context.getRequiredPersistentEntity(NoId.class);

        assertThatExceptionOfType(MappingException.class).isThrownBy(entity::getRequiredDocumentIdProperty)
            .withMessageContaining(NoId.class.getName())
            .withMessageContaining("no id property");
    }

    @Test
    void twoIdAnnotationsFail() {
        assertThatExceptionOfType(MappingException.class)
            .isThrownBy(() -> this.context.getRequiredPersistentEntity(TwoIds.class))
            .havingRootCause()
            .withMessageContaining("two @Id properties")
            .withMessageContaining("'first' and 'second'");
    }

    @Test
    void collectionNameMustBeOneFolderName() {
        assertThatExceptionOfType(MappingException.class)
            .isThrownBy(() -> this.context.getRequiredPersistentEntity(EscapingCollection.class))
            .havingRootCause()
            .withMessageContaining("'../etc'")
            .withMessageContaining(EscapingCollection.class.getName());
        assertThatExceptionOfType(MappingException.class)
            .isThrownBy(() -> this.context.getRequiredPersistentEntity(HiddenCollection.class))
            .havingRootCause()
            .withMessageContaining("'.hidden'");
    }

    record Keyed(@Id String key, String id, @Indexed(unique = true) String slug) {
    }

    record URLHolder(String id, String url) {
    }

    record NumericId(@Id Long id, String name) {
    }

    record NoId(String name) {
    }

    record TwoIds(@Id String first, @Id String second) {
    }

    @Document(collection = "../etc")
    record EscapingCollection(String id) {
    }

    @Document(collection = ".hidden")
    record HiddenCollection(String id) {
    }

}
