/**
 * The memory estimator's cost: estimateMemory over a sweep of 10,000 training
 * set-ups (6 model presets × ZeRO stages × precisions × optimizers × recompute
 * × TP × micro-batch × sequence length), and parseModelConfig + parameterCount
 * on the shipped configs. Prints configs/s and µs per config.
 */
import { readFileSync } from "node:fs";
import { estimateMemory, parameterCount, parseModelConfig, PRESET_NAMES, type TrainingSetup } from "../lib/memory/index.js";

const texts = PRESET_NAMES.map((n) => readFileSync(new URL(`../lib/memory/configs/${n}.json`, import.meta.url), "utf8"));
const archs = texts.map((t) => parseModelConfig(t));

function sweep(count: number): TrainingSetup[] {
  const out: TrainingSetup[] = [];
  const stages = [0, 1, 2, 3] as const, precisions = ["fp32", "fp16", "bf16"] as const, optimizers = ["adamw", "sgd-momentum", "sgd"] as const;
  const recomputes = ["none", "selective", "full"] as const, tps = [1, 2, 4], batches = [1, 2, 4, 8], seqs = [512, 1024, 2048, 4096, 8192];
  for (let i = 0; out.length < count; i++) {
    const arch = archs[i % archs.length]!;
    const tp = tps[(i >> 1) % tps.length]!;
    if (arch.numHeads % tp !== 0) continue;
    out.push({
      arch, numGpus: 8 * tp, tensorParallel: tp, zeroStage: stages[i % 4]!, precision: precisions[(i >> 2) % 3]!, optimizer: optimizers[(i >> 3) % 3]!,
      recompute: recomputes[(i >> 4) % 3]!, microBatch: batches[(i >> 5) % 4]!, seqLen: seqs[(i >> 6) % 5]!, sequenceParallel: i % 2 === 0,
    });
  }
  return out;
}

export default async function bench(): Promise<void> {
  const setups = sweep(10_000);
  let sink = 0;
  for (const s of setups.slice(0, 1000)) sink += estimateMemory(s).perGpu.total; // warm-up
  const rows: Record<string, unknown>[] = [];
  for (let run = 0; run < 3; run++) {
    const t0 = performance.now();
    for (const s of setups) sink += estimateMemory(s).perGpu.total;
    const ms = performance.now() - t0;
    rows.push({ what: "estimateMemory, 10,000 set-ups", run: run + 1, "total ms": +ms.toFixed(1), "configs/s": Math.round(setups.length / (ms / 1000)), "µs per config": +((ms * 1000) / setups.length).toFixed(2) });
  }
  const reps = 2000;
  const t1 = performance.now();
  for (let r = 0; r < reps; r++) for (const t of texts) sink += parameterCount(parseModelConfig(t)).total;
  const ms1 = performance.now() - t1;
  const n1 = reps * texts.length;
  rows.push({ what: `parseModelConfig(text) + parameterCount, ${n1.toLocaleString("en-US")} configs`, run: 1, "total ms": +ms1.toFixed(1), "configs/s": Math.round(n1 / (ms1 / 1000)), "µs per config": +((ms1 * 1000) / n1).toFixed(2) });
  console.table(rows);
  if (!Number.isFinite(sink)) throw new Error("estimator returned a non-finite total");
}
