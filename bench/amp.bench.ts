/**
 * AMP benchmarks: training steps per second of lib/nn's char LM through
 * ampStep in each precision (fp32, fp16 + GradScaler, bf16), at the page's
 * live size (AMP_LIVE_MODEL) and at DEFAULT_MODEL (the build-time curves),
 * and the cost of lib/nn's simulated matmul with fp32 versus fp16 accumulation.
 * Prints figures; asserts nothing.
 */
import { ampStep, AMP_LIVE_MODEL, castArray, charLmSetup, GradScaler, initAmpState, trainWithGradScaler, type AmpConfig, type AmpModel } from "../lib/amp/index.js";
import { matmul } from "../lib/nn/matmul.js";

function stepsPerSecond<B>(model: AmpModel<B>, init: Float32Array[], batch: (i: number) => B, config: AmpConfig, minMs: number, maxSteps: number): { steps: number; msPerStep: number } {
  let s = initAmpState(init, config);
  s = ampStep(model, s, batch(0), config).state; // warm-up
  let steps = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < minMs && steps < maxSteps) s = ampStep(model, s, batch(++steps), config).state;
  return { steps, msPerStep: (performance.now() - t0) / steps };
}

export default async function bench(): Promise<void> {
  const optimizer = { kind: "adamw", lr: 1e-2 } as const;
  const configs: [string, AmpConfig][] = [
    ["fp32", { precision: "fp32", lossScaling: "none", optimizer }],
    ["fp16 + GradScaler", { precision: "fp16", lossScaling: "dynamic", optimizer }],
    ["bf16", { precision: "bf16", lossScaling: "none", optimizer }],
  ];
  // The page's live figures: AMP_LIVE_MODEL, 8 × 8 tokens per batch. The build-time curves: DEFAULT_MODEL, 8 × 16.
  const live = charLmSetup({ model: AMP_LIVE_MODEL, batchSize: 8, seqLen: 8, tokensPerStep: 2 ** 22, steps: 400 });
  const full = charLmSetup({ tokensPerStep: 2 ** 22, steps: 100 });
  const params = (s: { init: Float32Array[] }) => s.init.reduce((n, p) => n + p.length, 0);
  const rows = [];
  for (const [, cfg] of configs) stepsPerSecond(live.model, live.init, live.batch, cfg, 300, 50); // JIT warm-up of every path, so the first row is not penalised
  for (const [label, s, minMs, maxSteps] of [[`AMP_LIVE_MODEL (${params(live)} params), ${live.tokensPerBatch} tokens/batch`, live, 1500, 400], [`DEFAULT_MODEL (${params(full)} params), ${full.tokensPerBatch} tokens/batch`, full, 2000, 60]] as const) {
    for (const [name, cfg] of configs) {
      const t = stepsPerSecond(s.model, s.init, s.batch, cfg, minMs, maxSteps);
      rows.push({ model: `char LM (lib/nn) ${label}`, precision: name, "steps/s": +(1000 / t.msPerStep).toFixed(1), "ms/step": +t.msPerStep.toFixed(2), "tokens/s": Math.round((s.tokensPerBatch * 1000) / t.msPerStep), steps: t.steps });
    }
  }
  console.log("AMP training steps per second (CPU, simulated precision; one ampStep = cast, forward, backward, unscale, check, AdamW, scale update)");
  console.table(rows);

  const M = 64, K = 512, N = 64;
  const a = castArray("fp16", Float32Array.from({ length: M * K }, (_, i) => Math.sin(i) * 0.5 + 0.5));
  const b = castArray("fp16", Float32Array.from({ length: K * N }, (_, i) => Math.cos(i) * 0.5 + 0.5));
  const mm = [];
  for (const accumulate of ["fp32", "fp16"] as const) {
    const reps = 5;
    matmul(a, b, { M, K, N }, accumulate);
    const t0 = performance.now();
    for (let r = 0; r < reps; r++) matmul(a, b, { M, K, N }, accumulate);
    const ms = (performance.now() - t0) / reps;
    mm.push({ "lib/nn matmul (64×512)·(512×64), fp16 inputs": `accumulate ${accumulate}`, "ms/call": +ms.toFixed(1), "simulated GFLOP/s": +((2 * M * K * N) / ms / 1e6).toFixed(3) });
  }
  console.log("Simulated fp16 matmul on the CPU (every addition rounded by software: a correctness model, not a speed model)");
  console.table(mm);

  // Exercise 4.4 (build it) trains twice with the student's scaler and twice with the course's: these are the runs it times.
  const ex = charLmSetup({ model: AMP_LIVE_MODEL, batchSize: 8, seqLen: 8, tokensPerStep: 2 ** 22, steps: 80 });
  const runs = [];
  for (const [name, scaler, steps, maxGradNorm] of [["from 2^30, growth_interval 6", { initScale: 2 ** 30, growthInterval: 6 }, 80, undefined], ["from 2^36, growth_interval 5, clip 0.5", { initScale: 2 ** 36, growthInterval: 5 }, 30, 0.5]] as const) {
    const t0 = performance.now();
    const r = trainWithGradScaler(ex.model, ex.init, ex.batch, new GradScaler(scaler), steps, { optimizer, maxGradNorm });
    runs.push({ "exercise 4.4 run (trainWithGradScaler, GradScaler)": name, steps, skipped: r.records.filter((x) => x.skipped).length, "ms total": Math.round(performance.now() - t0) });
  }
  console.log("The build-it exercise's training runs (the grader runs each twice: the student's scaler and the course's)");
  console.table(runs);
}
