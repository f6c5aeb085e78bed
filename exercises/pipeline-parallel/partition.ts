import { notImplemented } from "../harness/index.js";

/**
 * Exercise 7.6 — balanced pipeline stages.
 *
 * `costs[i]` is the time (or FLOPs) of layer i, in model order. Split the layers into p contiguous,
 * non-empty stages so that the largest stage sum is as small as possible (the slowest stage sets
 * every schedule's pace). Return the p + 1 bounds: stage s holds layers bounds[s] … bounds[s+1] − 1,
 * bounds[0] = 0, bounds[p] = costs.length. Any optimal split earns full marks.
 *
 * Errors: `p must be an integer >= 1, got 0` (RangeError);
 * `p must be <= the number of layers (3): every stage needs a layer, got p = 4` (RangeError);
 * `costs[1] must be a finite number >= 0, got -1` (RangeError).
 * Read: the chapter's "Unequal stages" section.
 *
 * @param costs per-layer costs, each finite ≥ 0
 * @param p number of stages, 1 … costs.length
 * @returns p + 1 increasing layer indices
 * @example balanceStages([1, 1, 1, 3], 2) // [0, 3, 4]
 */
export function balanceStages(costs: number[], p: number): number[] {
  return notImplemented("7.6");
}
