/**
 * The planner's default inputs: where the page's inputs start and what the
 * build-time search (src/data/plan-results.json.ts) answers, one source for
 * both so the page can draw its inputs before the build's answer arrives.
 * @example PLANNER_DEFAULTS.model // "llama-2-7b"
 * @see the plan page's "The planner" section; bench/plan.bench.ts (the same case)
 */
export const PLANNER_DEFAULTS = Object.freeze({
  model: "llama-2-7b",
  cluster: "8x-a100-80gb",
  globalBatch: 64,
  seqLen: 4096,
  precision: "bf16",
  headroom: 0.1,
  pricePerGpuHour: 2.5,
} as const);
