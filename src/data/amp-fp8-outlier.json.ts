// Data loader (Node, build time): the amp page's spiky-outlier experiment. lib/nn's model trained for OUTLIER.steps
// steps with an outlier channel in blocks.0.W1's input every 10th step (moved there from the weight's row, so the
// layer computes the same product), under delayed scaling with TE's history and a short one, current scaling and
// block-wise scaling; per step: the loss, the forward GEMM's error, and what the input's cast did. The page's
// live run (a button) trains the "delayed, history 4" run again and must reproduce it step for step (that run keeps every digit).
import { scaleTrace, trainFp8, type Fp8Scaling } from "../../lib/amp/fp8/index.js";
import { OUTLIER } from "./amp-fp8-settings.js";

const { steps, outlier, live } = OUTLIER;
const w = outlier.weight, input = `${w}:input`;
const configs: { name: string; precision: Fp8Scaling }[] = [
  { name: "delayed, history 1024 (TE default)", precision: { kind: "delayed" } },
  { name: "delayed, history 4", precision: { kind: "delayed", recipe: live } },
  { name: "current (per tensor)", precision: { kind: "current" } },
  { name: "block-wise 1 × 128", precision: { kind: "blockwise" } },
  { name: "block-wise 1 × 16", precision: { kind: "blockwise", blockSize: 16 } },
];

// Figures need 5 significant digits; the run the page's live run reproduces keeps every digit (its check is bit for bit).
const round5 = (x: number) => Number(x.toPrecision(5));
const amaxes: number[] = [];
const runs = configs.map(({ name, precision }) => {
  const { records } = trainFp8({ precision, steps, outlier, measureError: true });
  const exact = name === "delayed, history 4", r5 = exact ? (x: number) => x : round5;
  if (precision.kind === "current") for (const r of records) amaxes.push(r.tensors.find((x) => x.tensor === input)!.amax);
  return {
    name, precision,
    points: records.map((r) => {
      const t = r.tensors.find((x) => x.tensor === input)!;
      return { step: r.step, loss: r5(r.loss), error: r5(r.forwardError[w]), overflow: t.overflow, underflow: t.underflow };
    }),
  };
});
const bf16 = trainFp8({ precision: "bf16", steps }).losses.map(round5);
// The amax of the input at every step (as measured by the current-scaling run), replayed through delayed scaling at the controls' defaults.
const replay = scaleTrace(amaxes, live, "fp8-e4m3");

process.stdout.write(JSON.stringify({ steps, outlier, live, runs, bf16, amaxes, replay: { scale: replay.scale, overflow: replay.overflow } }));
