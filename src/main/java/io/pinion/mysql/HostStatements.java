package io.pinion.mysql;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * Groups the keys of a read across shards into statements, one host's shards per statement: every shard of the
 * host joins its statement until the next one would take it past {@code maxKeys} (a shard's keys are never split,
 * so a statement holds at least one shard). A read of a page's objects spread over many shards then costs a
 * statement per host, not per shard.
 */
public final class HostStatements {

    private HostStatements() {
    }

    /**
     * @param byShard each shard's keys, in the order the statements should follow
     * @param hostOf the name of the host that holds a shard now
     * @return the statements, each a map of its shards to their keys
     */
    public static <T> List<Map<Integer, List<T>>> of(Map<Integer, List<T>> byShard, IntFunction<String> hostOf,
            int maxKeys) {
        Map<String, List<Map<Integer, List<T>>>> byHost = new LinkedHashMap<>();
        Map<String, Integer> filled = new LinkedHashMap<>();
        for (Map.Entry<Integer, List<T>> entry : byShard.entrySet()) {
            String host = hostOf.apply(entry.getKey());
            List<Map<Integer, List<T>>> statements = byHost.computeIfAbsent(host, key -> new ArrayList<>(1));
            int keys = entry.getValue().size();
            if (statements.isEmpty() || filled.get(host) + keys > maxKeys) {
                statements.add(new LinkedHashMap<>());
                filled.put(host, 0);
            }
            statements.get(statements.size() - 1).put(entry.getKey(), entry.getValue());
            filled.merge(host, keys, Integer::sum);
        }
        List<Map<Integer, List<T>>> all = new ArrayList<>();
        byHost.values().forEach(all::addAll);
        return all;
    }
}
