import type { PlanResult } from "./evaluatePlan.js";
import type { SearchResult } from "./searchPlans.js";

/**
 * A dimension of the search the planner can answer "what is best at each size of it" for.
 * @see {@link bestByDimension}
 */
export type PlanDimension = "contextParallel" | "expertParallel" | "tensorParallel" | "pipelineParallel";

/**
 * The best plan at one size of a dimension, or, when none fits, the closest rejected one.
 * @see {@link bestByDimension}
 */
export interface DimensionRow {
  size: number;
  /** The fastest plan of that size that fits. */
  best?: PlanResult;
  /** When none fits: the rejected plan of that size least over memory (the searched order of rejections). */
  closest?: PlanResult;
}

/**
 * For each size of one dimension that the search judged (a plan without `contextParallel` or `expertParallel`
 * has size 1), the fastest plan of that size that fits, or the closest one that does not: the view that says
 * whether a dimension is needed to fit (no plan of size 1 fits) and what it buys (the best plan per size).
 * @param search a {@link SearchResult} (its `ranked` fastest first, its `rejected` closest first)
 * @param dim the dimension
 * @returns rows by increasing size (new objects)
 * @throws nothing
 * @example bestByDimension(searchPlans(llama70b, cluster, { globalBatch: 64, seqLen: 131072, precision: "bf16", optimizer: "adamw" }), "contextParallel")[0].best
 *   // the best plan with C = 1, or undefined when every such plan is over memory
 * @see {@link SearchResult}
 */
export function bestByDimension(search: Pick<SearchResult, "ranked" | "rejected">, dim: PlanDimension): DimensionRow[] {
  const size = (r: PlanResult) => r.plan[dim] ?? 1;
  const rows = new Map<number, DimensionRow>();
  for (const r of search.ranked) if (!rows.has(size(r))) rows.set(size(r), { size: size(r), best: r });
  for (const r of search.rejected) if (!rows.has(size(r))) rows.set(size(r), { size: size(r), closest: r });
  return [...rows.values()].sort((a, b) => a.size - b.size);
}
