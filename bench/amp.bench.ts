/**
 * AMP benchmarks: training steps per second of the chapter's two models
 * through ampStep in each precision (fp32, fp16 + GradScaler, bf16), and the
 * cost of the simulated fp16 matmul with fp32 versus fp16 accumulation.
 * Prints figures; asserts nothing.
 */
import { ampStep, initAmpState, matmulPrecision, tinyLmSetup, type AmpConfig, type AmpModel } from "../lib/amp/index.js";
import { charLmSetup } from "../lib/amp/charLmSetup.js";

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
  const tiny = tinyLmSetup({ tokensPerStep: 2 ** 22, steps: 400 });
  const char = charLmSetup({ tokensPerStep: 2 ** 22, steps: 100 });
  const rows = [];
  for (const [, cfg] of configs) stepsPerSecond(tiny.model, tiny.init, tiny.batch, cfg, 300, 50); // JIT warm-up of every path, so the first row is not penalised
  for (const [name, cfg] of configs) {
    const t = stepsPerSecond(tiny.model, tiny.init, tiny.batch, cfg, 1500, 400);
    rows.push({ model: "tiny MLP LM (lib/amp), 128 tokens/batch", precision: name, "steps/s": +(1000 / t.msPerStep).toFixed(1), "ms/step": +t.msPerStep.toFixed(2), "tokens/s": Math.round((128 * 1000) / t.msPerStep), steps: t.steps });
  }
  for (const [name, cfg] of configs) {
    const t = stepsPerSecond(char.model, char.init, char.batch, cfg, 2000, 60);
    rows.push({ model: "char LM (lib/nn), 128 tokens/batch", precision: name, "steps/s": +(1000 / t.msPerStep).toFixed(1), "ms/step": +t.msPerStep.toFixed(2), "tokens/s": Math.round((char.tokensPerBatch * 1000) / t.msPerStep), steps: t.steps });
  }
  console.log("AMP training steps per second (CPU, simulated precision; one ampStep = cast, forward, backward, unscale, check, AdamW, scale update)");
  console.table(rows);

  const M = 64, K = 512, N = 64;
  const a = Float32Array.from({ length: M * K }, (_, i) => Math.sin(i) * 0.5 + 0.5);
  const b = Float32Array.from({ length: K * N }, (_, i) => Math.cos(i) * 0.5 + 0.5);
  const mm = [];
  for (const accumulate of ["fp32", "low"] as const) {
    const reps = 5;
    matmulPrecision(a, b, M, K, N, { precision: "fp16", accumulate });
    const t0 = performance.now();
    for (let r = 0; r < reps; r++) matmulPrecision(a, b, M, K, N, { precision: "fp16", accumulate });
    const ms = (performance.now() - t0) / reps;
    mm.push({ "matmul (64×512)·(512×64), fp16 inputs": `accumulate ${accumulate === "low" ? "fp16" : "fp32"}`, "ms/call": +ms.toFixed(1), "simulated GFLOP/s": +((2 * M * K * N) / ms / 1e6).toFixed(3) });
  }
  console.log("Simulated fp16 matmul on the CPU (every addition rounded by software: a correctness model, not a speed model)");
  console.table(mm);
}
