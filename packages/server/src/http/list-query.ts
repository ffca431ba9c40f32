/**
 * What a list's `sort` (or any other client-chosen key) names in a table of allowed values: only the
 * table's own keys count, so `__proto__` or `constructor` fall back like any unknown key.
 */
export function ownValue<T>(table: Readonly<Record<string, T>>, key: string | undefined, fallback: NoInfer<T>): T {
  return key !== undefined && Object.hasOwn(table, key) ? (table[key] as T) : fallback;
}
