import { notImplemented } from "../harness/index.js";

/**
 * Exercise 14.1 — the inverse of capacity: the smallest capacity factor that drops no token.
 *
 * P ranks each route their own tokens: `routings[r]` lists the expert ids of rank r's (token, slot) pairs,
 * (N_r, k) row-major (N_r may be 0). Each rank computes its capacity per expert from its own tokens,
 * capacity = ⌈(N_r·k/E)·CF⌉ (Megatron's get_capacity on the rank's tokens), and drops what exceeds it.
 * Capacity factors are set in hundredths (1.25, 2.0): return the smallest CF = j/100, j ≥ 1 an integer, at which
 * no rank drops a pair. Compute the capacity exactly (as a fraction): the float product (N·k/E)·CF can land a hair
 * above an integer and round up (the page shows one).
 * Errors: RangeError when a rank's list is not a multiple of k long, or holds an id outside [0, E).
 * Read: the chapter's section "Capacity and dropped tokens". Do not read lib/expert-parallel beyond types.ts.
 *
 * @param routings per rank, the expert ids of its pairs
 * @param numExperts E
 * @param topK k
 * @returns the capacity factor j/100
 * @example smallestCapacityFactor([[0, 0, 0, 1]], 2, 1) // 1.01: expert 0 has 3 of 4 tokens, ⌈4·1/2·CF⌉ ≥ 3 needs CF > 1
 */
export function smallestCapacityFactor(routings: number[][], numExperts: number, topK: number): number {
  return notImplemented("14.1");
}
