import { notImplemented } from "../harness/index.js";

/**
 * Exercise 8.4 — FSDP's wrapping units by size, and what they cost at the peak.
 *
 * PyTorch's size_based_auto_wrap_policy groups consecutive layers (forward
 * order) into one FSDP unit until the group holds at least `minNumParams`
 * parameters; the layers left at the end (fewer than minNumParams together)
 * stay in the root's unit. Under FULL_SHARD a unit is gathered whole while it
 * computes, so the largest unit bounds the gathered parameters at any moment
 * (without prefetch).
 *
 * Return the units as lists of layer indices, and `maxUnitParams`, the
 * parameter count of the largest unit.
 *
 * Errors (RangeError), in this order: `layerParams must hold at least one layer`;
 * `layerParams[2] must be an integer >= 0, got -1`; `minNumParams must be an integer >= 1, got 0`.
 * Read: the page's section "FSDP wrapping units".
 *
 * @param layerParams parameters of each layer, forward order
 * @param minNumParams the policy's min_num_params
 * @returns `{units, maxUnitParams}`
 * @example sizeBasedWrap([3, 5, 2, 7, 1], 6) // { units: [[0, 1], [2, 3], [4]], maxUnitParams: 9 }
 */
export function sizeBasedWrap(layerParams: number[], minNumParams: number): { units: number[][]; maxUnitParams: number } {
  return notImplemented("8.4");
}
