package dev.storh.doc.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.doc.StoreStats;
import dev.storh.store.VerifyReport;
import dev.storh.SharedFiles;
import dev.storh.StorageRecord;
import dev.storh.doc.DocStore;
import dev.storh.query.Direction;
import dev.storh.query.QueryBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;

/**
 * Every query the original answered on its cities fixture (expected.json, cities.queries) gives the
 * same ids, count and first record here, served from the original's own index files.
 */
class FixtureQueriesTest {

    @TempDir
    Path temp;

    DocStore cities;
    Map<String, Object> expected;

    @BeforeEach
    @SuppressWarnings("unchecked")
    void open() throws Exception {
        Path app = SharedFiles.copyPhpFixture(temp);
        cities = DocStore.open(app, "cities");
        Map<String, Object> all = JsonMapper.builder().build().readValue(
                SharedFiles.expectedAnswers().toFile(), Map.class);
        expected = (Map<String, Object>) ((Map<String, Object>) all.get("cities")).get("queries");
    }

    @SuppressWarnings("unchecked")
    private void check(String name, Function<QueryBuilder, QueryBuilder> build, boolean expectIndex) {
        Map<String, Object> answer = (Map<String, Object>) expected.get(name);
        QueryBuilder q = build.apply(cities.query());
        List<String> ids = q.get().stream().map(StorageRecord::id).toList();
        assertThat(ids).as(name).containsExactlyElementsOf((List<String>) answer.get("ids"));
        assertThat(q.count()).as(name + " count").isEqualTo(((Number) answer.get("count")).longValue());
        assertThat(q.first().map(StorageRecord::id).orElse(null)).as(name + " first").isEqualTo(answer.get("first"));
        assertThat(q.explain().usesIndexes()).as(name + " plan " + q.explain()).isEqualTo(expectIndex);
    }

    @Test
    void equalityInAndNotEqual() {
        check("country_eq_US", q -> q.where("country").eq("US"), true);
        check("country_in", q -> q.where("country").in(List.of("FR", "RO", "JP")), true);
        check("country_neq_US_count", q -> q.where("country").neq("US"), false);
        check("not_in", q -> q.where("latitude").gt(50.0).where("country").notIn(List.of("DE", "FR", "US")), true);
    }

    @Test
    void rangesPrefixesAndOrderedReads() {
        check("lat_between", q -> q.where("latitude").between(44.0, 46.5), true);
        check("lat_gt_ordered_desc", q -> q.where("latitude").gt(60.0).orderBy("latitude", Direction.DESC).limit(100), true);
        check("pop_top10", q -> q.orderBy("population", Direction.DESC).limit(10), false);
        check("name_prefix_San", q -> q.where("name").prefix("San"), true);
        check("name_order_limit", q -> q.where("country").eq("DE").orderBy("name").limit(25), true);
    }

    @Test
    void compoundGroupsExistenceAndCursor() {
        check("compound", q -> q.where("admin1").eq("CA").where("country").eq("US"), true);
        check("coastal_and_lat", q -> q.where("coastal").eq(true).where("latitude").lt(0.0), true);
        check("tags_exists", q -> q.where("tags").exists(), false);
        check("meta_missing_count", q -> q.where("meta").missing(), false);
        check("or_group", q -> q.where("country").eq("NZ").where("population").gt(1_000_000)
                .orWhere(b -> b.where("country").eq("AQ")), true);
        @SuppressWarnings("unchecked")
        List<String> page = (List<String>) ((Map<String, Object>) expected.get("cursor_page")).get("ids");
        List<String> all = cities.ids().toList();
        String cursor = all.get(all.indexOf(page.get(0)) - 1);
        check("cursor_page", q -> q.cursor(cursor).limit(50), false);
    }

    @Test
    void theOriginalsIndexesVerifyCleanAndFollowOurWrites() throws Exception {
        VerifyReport<StoreStats> report = cities.verify();
        assertThat(report.errors()).isEmpty();
        assertThat(report.ok()).isTrue();
        assertThat(report.stats().indexes()).isEqualTo(5);

        long before = cities.query().where("country").eq("RO").count();
        StorageRecord added = cities.put(Map.of("name", "Sânmartin", "country", "RO", "admin1", "13",
                "latitude", 46.25, "population", 4000L, "coastal", false));
        assertThat(cities.query().where("country").eq("RO").count()).isEqualTo(before + 1);
        assertThat(cities.query().where("name").prefix("Sânm").get()).extracting(StorageRecord::id)
                .containsExactly(added.id());
        // The original's equality file now lists the new id, in its exact format.
        Path roFile = cities.collectionRoot().resolve(".storh/indexes/entries/eq/" + IndexKeys.hex("country") + "/s-524f.jsonc");
        String ro = Files.readString(roFile);
        assertThat(ro).startsWith("{\"field\":\"country\",\"key\":\"s-524f\",\"count\":" + (before + 1) + ",\"value\":\"RO\",\"ids\":[")
                .contains(added.id()).endsWith("]}\n");
        String delta = Files.readString(cities.collectionRoot().resolve(".storh/indexes/entries/range/"
                + IndexKeys.hex("population") + ".delta.jsonl"));
        assertThat(delta).endsWith("{\"key\":\"n-00000000000004000d000000\",\"value\":4000,\"count\":1,\"ids\":[\""
                + added.id() + "\"],\"remove\":[]}\n");
        assertThat(cities.verify().errors()).isEmpty();

        String usId = ((List<?>) ((Map<?, ?>) expected.get("country_eq_US")).get("ids")).get(0).toString();
        assertThat(cities.delete(usId)).isTrue();
        assertThat(cities.query().where("country").eq("US").count()).isEqualTo(304);
        assertThat(cities.query().where("admin1").eq("CA").where("country").eq("US").get())
                .extracting(StorageRecord::id).doesNotContain(usId);
        assertThat(cities.verify().errors()).isEmpty();
        assertThat(cities.reindex()).isEqualTo(new ReindexReport(5, 3000));
        assertThat(cities.verify().ok()).isTrue();
        assertThat(cities.query().where("country").eq("RO").count()).isEqualTo(before + 1);
    }
}
