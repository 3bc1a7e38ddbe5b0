package dev.storh.query;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@link QueryBuilder#explain()} reports:
 * {@code {"store":"storh.DocStore","plan":"index_scan","indexes":[{"field":"rank","operator":"gte"}],"groups":1}}.
 *
 * <p>Unlike the original, {@code index_scan} is reported only when the planner really uses
 * indexes, i.e. when every OR group has an index-supported condition (W12).
 *
 * @param store a fixed identifier of the store type, e.g. {@code storh.DocStore}
 * @param plan {@code index_scan} or {@code full_scan}
 * @param indexes per group, the first index-supported condition: field and operator label
 * @param groups the number of OR groups (1 for an empty query)
 */
public record QueryPlan(String store, String plan, List<IndexUse> indexes, int groups) {

    /** Plan name when indexes answer the query. */
    public static final String INDEX_SCAN = "index_scan";
    /** Plan name when every record is read. */
    public static final String FULL_SCAN = "full_scan";

    /**
     * One index used by a group.
     *
     * @param field the field
     * @param operator the operator label, e.g. {@code eq}, {@code gte}
     */
    public record IndexUse(String field, String operator) {
    }

    /**
     * @return whether indexes answer the query
     */
    public boolean usesIndexes() {
        return INDEX_SCAN.equals(plan);
    }

    /**
     * @return the spec's JSON shape, keys in order {@code store, plan, indexes, groups}
     */
    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("store", store);
        map.put("plan", plan);
        List<Map<String, Object>> list = new ArrayList<>();
        for (IndexUse use : indexes) {
            Map<String, Object> item = new LinkedHashMap<>();
            item.put("field", use.field());
            item.put("operator", use.operator());
            list.add(item);
        }
        map.put("indexes", list);
        map.put("groups", (long) groups);
        return map;
    }
}
