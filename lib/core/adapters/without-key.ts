/**
 * `map` without `key`, as the map to keep using: a fresh Map in place of one the delete would
 * leave empty. A Map emptied by `delete` (or `clear`) allocates a new hash table, and the old
 * table keeps a link to the new one for iterators still walking it. Once the Map has reached
 * V8's old generation, each dead old table holds the next one alive through young-generation
 * collections until a full collection, so under a flood of tool calls (each opened and closed
 * within a few KB of output) every table, with the ids and values it held, was promoted: 15 MB of
 * the 100 MB Claude flood's 44 MB over generic passthrough (bench/throughput.ts). A fresh Map
 * starts young, and one a tool call empties again soon dies young. Maps that stay non-empty
 * rehash too, but only every few deletes.
 */
export function withoutKey<K, V>(map: Map<K, V>, key: K): Map<K, V> {
  if (map.size === 1 && map.has(key)) return new Map();
  map.delete(key);
  return map;
}
