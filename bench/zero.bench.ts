/**
 * ZeRO benchmark: one simulated ZeRO-3 training step of lib/nn's DEFAULT_MODEL on
 * 8 ranks (bf16, fp32 master, AdamW; every gather, reduce-scatter and
 * allocation logged), beside stage 0 (DDP) and stage 2, in steps per second
 * (fastest of 3 runs of 3 steps after a warm-up). Prints figures; asserts nothing.
 */
import { trainZero } from "../lib/zero/trainZero.js";
import { DEFAULT_MODEL } from "../lib/nn/index.js";

/** Fastest of `runs` timed calls, in ms (the machine is shared: the minimum is the least disturbed run). */
function best(fn: () => unknown, runs = 3): number {
  let ms = Infinity;
  for (let i = 0; i < runs; i++) { const t0 = performance.now(); fn(); ms = Math.min(ms, performance.now() - t0); }
  return ms;
}

export default async function bench(): Promise<void> {
  const rows: Record<string, string | number>[] = [];
  for (const stage of [0, 2, 3]) {
    const cfg = { numRanks: 8, stage, steps: 3, model: DEFAULT_MODEL, batchSize: 2, seqLen: 16, keepEventsFor: 1, knobs: { reduce_bucket_size: 4000, stage3_param_persistence_threshold: 0 } };
    const run = trainZero(cfg); // warm-up
    const ms = best(() => trainZero(cfg));
    rows.push({ stage, ranks: 8, params: run.numParams, "ms per step": +(ms / 3).toFixed(1), "steps/s": +(3000 / ms).toFixed(1), "elements sent per step": run.records[0].elementsSent.reduce((a, b) => a + b, 0) });
  }
  console.table(rows);
}
