/**
 * The value a search's memo holds for `key`, computed once by `make`; without a memo, computed every time.
 * A memo belongs to ONE model, cluster, workload and set of options (lib/plan's searchPlans makes one per search),
 * so a key names only what varies between plans.
 * @param cache the memo, or undefined
 * @param key what the value depends on, beyond the search's fixed inputs
 * @param make computes the value (never undefined)
 * @returns the value
 * @throws what `make` throws
 * @example memo(new Map(), "parameters", () => parameterCount(arch)).total
 * @see lib/plan's StepTimeOptions.cache
 */
export function memo<T>(cache: Map<string, unknown> | undefined, key: string, make: () => T): T {
  if (!cache) return make();
  let v = cache.get(key) as T | undefined;
  if (v === undefined) cache.set(key, (v = make()));
  return v;
}
