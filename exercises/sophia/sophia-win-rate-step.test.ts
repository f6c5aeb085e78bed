// Grader of the chapter's "build it" exercise: SophiaG whose ρ keeps the code's win rate in a band,
// checked step by step and inside 40 steps of lib/nn's character model (GNB curvature every 4 steps).
import * as fc from "fast-check";
import { callSafely, defineExercise, expectThrows, fail, formatValue, largeArray, property } from "../harness/index.js";
import { chooseRho, gnbGradients, hessianEma, isHessianStep, sophiagStep, sophiagStepWithWinRate, winRate } from "../../lib/sophia/index.js";
import { corpus, createModel, DEFAULT_MODEL, forward, backward, sampleBatch, mulberry32, zeroGrad } from "../../lib/nn/index.js";
import type { sophiaStepWithWinRate, WinRateConfig } from "./sophia-win-rate-step.js";

type F = typeof sophiaStepWithWinRate;
const reference: F = (t, g, m, h, c) => { const r = sophiagStepWithWinRate(t, g, m, h, c); return { theta: Array.from(r.theta), m: Array.from(r.m), rho: r.rho }; };
const SECTION = "the-algorithm-line-by-line";
const HINT = `see the page's section "The algorithm line by line" (src/sophia.md#${SECTION})`;
const defaults = { lr: 1e-4, betas: [0.965, 0.99] as [number, number], rho: 0.04, weightDecay: 0.1, bs: 5120, winRate: [0.1, 0.5] as [number, number] };

/** One call, checked: the new m, a ρ whose win rate is in the band (or config.rho when none is), and SophiaG's update with that ρ. */
async function checkStep(f: F, theta: number[], grad: number[], m: number[], h: number[], config: WinRateConfig, hint: string, label?: string) {
  const c = { ...defaults, ...config };
  const call = label ?? `sophiaStepWithWinRate(${formatValue(theta)}, ${formatValue(grad)}, ${formatValue(m)}, ${formatValue(h)}, ${formatValue(config)})`;
  const r = await callSafely(f, [theta, grad, m, h, config], { hint, label: call });
  if (!r || typeof r.rho !== "number" || !(r.rho > 0) || !Number.isFinite(r.rho)) fail(`${call} returned ρ = ${formatValue(r?.rho)}: a positive finite number is needed`, hint);
  const mNext = m.map((x, i) => c.betas[0] * x + (1 - c.betas[0]) * grad[i]!);
  const reachable = chooseRho(mNext, h, c.bs, c.winRate, NaN);
  if (Number.isNaN(reachable)) {
    if (r.rho !== c.rho) fail(`${call}: no ρ gives a win rate in [${c.winRate.join(", ")}] here, so ρ must be config.rho = ${c.rho}; got ${r.rho}`, hint);
  } else {
    const w = winRate(mNext, h, r.rho, c.bs);
    if (w < c.winRate[0] || w > c.winRate[1]) fail(`${call}: with ρ = ${r.rho} the win rate (|m| < ρ·bs·h, m the new first moment) is ${w}, outside [${c.winRate.join(", ")}]`, hint);
  }
  const want = sophiagStep(theta, grad, m, h, { ...c, rho: r.rho });
  const worst = (a: ArrayLike<number>, b: ArrayLike<number>) => { let e = 0; for (let i = 0; i < b.length; i++) e = Math.max(e, Math.abs(a[i]! - b[i]!) / (1e-12 + Math.abs(b[i]!))); return e; };
  if (!r.theta || r.theta.length !== theta.length || !(worst(r.theta, want.theta) <= 1e-10)) fail(`${call}: the weights are not SophiaG's step with your ρ = ${r.rho} (relative tolerance 1e-10)`, HINT);
  if (!r.m || r.m.length !== m.length || !(worst(r.m, want.m) <= 1e-10)) fail(`${call}: the first moment is not β1·m + (1 − β1)·g`, HINT);
}

/** 40 steps of lib/nn's model with `step` (all parameters as one vector), GNB curvature after steps with i % 4 == 3. */
interface Run { losses: number[]; rates: number[]; reachable: boolean[] }
async function train(step: F | null, steps = 40, k = 4): Promise<Run> {
  const { vocab, tokens } = corpus();
  const model = createModel({ ...DEFAULT_MODEL, vocabSize: vocab.size, width: 16, hiddenDim: 32, numBlocks: 1, seed: 3 });
  const data = mulberry32(5), est = mulberry32(6);
  const cfg = { lr: 3e-3, rho: 0.05, weightDecay: 0.1, betas: [0.965, 0.99] as [number, number] };
  const sizes = model.params.map((p) => p.data.length), n = sizes.reduce((a, b) => a + b, 0);
  let m = new Array<number>(n).fill(0), h = new Array<number>(n).fill(0);
  const out: Run = { losses: [], rates: [], reachable: [] };
  for (let s = 0; s < steps; s++) {
    const batch = sampleBatch(tokens, { batchSize: 4, seqLen: 16, contextLength: DEFAULT_MODEL.contextLength }, data);
    zeroGrad(model.params);
    const fw = forward(model, batch);
    backward(model, fw);
    out.losses.push(fw.loss);
    const theta = model.params.flatMap((p) => Array.from(p.data)), grad = model.params.flatMap((p) => Array.from(p.grad));
    const config = { ...cfg, bs: fw.tokenCount };
    const r = step ? await callSafely(step, [theta, grad, m, h, config], { hint: HINT, label: `sophiaStepWithWinRate(all ${n} parameters, step ${s})` })
      : (() => { const x = sophiagStep(theta, grad, m, h, config); return { theta: Array.from(x.theta), m: Array.from(x.m), rho: cfg.rho }; })();
    const mNext = m.map((x, i) => cfg.betas[0] * x + (1 - cfg.betas[0]) * grad[i]!);
    out.rates.push(winRate(mNext, h, r.rho, fw.tokenCount));
    out.reachable.push(!Number.isNaN(chooseRho(mNext, h, fw.tokenCount, [0.1, 0.5], NaN)));
    let o = 0;
    model.params.forEach((p, j) => { for (let i = 0; i < sizes[j]!; i++) p.data[i] = r.theta[o + i]!; o += sizes[j]!; });
    m = Array.from(r.m);
    if (isHessianStep(s, k)) {
      gnbGradients(model, sampleBatch(tokens, { batchSize: 4, seqLen: 16, contextLength: DEFAULT_MODEL.contextLength }, data), est);
      h = Array.from(hessianEma(h, model.params.flatMap((p) => Array.from(p.grad)), 0.99));
    }
  }
  return out;
}
let fixedRun: Run | undefined;
const runs = new WeakMap<F, Run>();
const studentRun = async (f: F) => { if (!runs.has(f)) runs.set(f, await train(f)); return runs.get(f)!; };
const meanLast10 = (l: number[]) => l.slice(-10).reduce((a, b) => a + b, 0) / 10;
const grid = (min: number, max: number) => fc.integer({ min: min * 100, max: max * 100 }).map((v) => v / 100);

export default defineExercise({
  id: "11.4",
  title: "build it: SophiaG with a ρ that keeps the win rate in range",
  chapter: "sophia",
  file: "exercises/sophia/sophia-win-rate-step.ts",
  exportName: "sophiaStepWithWinRate",
  signature: "sophiaStepWithWinRate(theta, grad, m, h, {lr?, betas?, rho?, weightDecay?, bs?, winRate?}): {theta, m, rho}",
  build: true,
  section: SECTION,
  summary:
    "One SophiaG step as the authors' sophia.py does it, with ρ chosen anew at every step so that the share of coordinates whose update is not clipped (the code's train/win_rate) stays in [0.1, 0.5], the authors' advice for tuning ρ; config.rho when no ρ can. Graded on random steps (the win rate of your ρ, SophiaG's update with it, a million coordinates), then inside 40 steps of lib/nn's character model with GNB curvature: every step's win rate once the band can be reached, and a loss that follows the fixed-ρ run.",
  reference,
  checks: [
    { name: "the stub's example", points: 2, run: async (f) => {
        await checkStep(f, [1, 1, 1], [0.1, 0.5, 0.3], [0, 0, 0], [1, 1, 0], { lr: 0.1, betas: [0, 0.99], weightDecay: 0, bs: 1 }, `the stub's example: one coordinate of three wins; ${HINT}`);
    } },
    { name: "your ρ's win rate lies in the band", points: 5, run: (f) => property(
        fc.record({ rows: fc.array(fc.tuple(grid(-3, 3), grid(-2, 2), grid(-1, 1), grid(-0.5, 2)), { minLength: 1, maxLength: 30 }), bs: fc.integer({ min: 1, max: 64 }),
          band: fc.constantFrom([0.1, 0.5], [0.2, 0.3], [0, 0.2], [0.5, 1]) as fc.Arbitrary<[number, number]> }),
        async ({ rows, bs, band }) => {
          await checkStep(f, rows.map((r) => r[0]), rows.map((r) => r[1]), rows.map((r) => r[2]), rows.map((r) => r[3]), { lr: 0.01, bs, winRate: band, weightDecay: 0.1, betas: [0.9, 0.99] },
            "sort the coordinates' thresholds |m|/(bs·h) (m the new first moment): a ρ between two of them sets how many win");
        }, { numRuns: 120 }) },
    { name: "no ρ reaches the band: config.rho", points: 2, run: async (f) => {
        const hint = "when no ρ gives a share in the band, the contract says to use config.rho";
        await checkStep(f, [1, 2, 3], [0.1, 0.2, 0.3], [0, 0, 0], [0, 0, 0], { rho: 0.07 }, `${hint}: h = 0 everywhere, before the first curvature refresh`);
        await checkStep(f, [1, 1, 1, 1], [1, 1, 1, 1], [0, 0, 0, 0], [1, 1, 1, 1], { betas: [0, 0.99], bs: 2, rho: 0.03 }, `${hint}: four equal thresholds, so 0 or 4 of 4 win, never 1 or 2`);
    } },
    { name: "the strict test; h ≤ 0 never wins", points: 2, run: async (f) => {
        await checkStep(f, [1, 1, 1, 1, 1], [0, 0.3, 0.2, 0.4, 0.1], [0, 0, 0, 0, 0], [0, 1, -1, 1, 1], { betas: [0, 0.99], bs: 1, winRate: [0.2, 0.2] }, "|m| < ρ·bs·h is strict, and a coordinate with h ≤ 0 is clipped for every ρ");
    } },
    { name: "bad input names the field", points: 2, run: async (f) => {
        const a: [number[], number[], number[], number[]] = [[1], [1], [0], [0]];
        for (const [c, re] of [[{ rho: 0 }, /rho/], [{ betas: [1, 0.99] }, /betas\[0\]/], [{ bs: 0 }, /bs/], [{ lr: -1 }, /lr/], [{ winRate: [0.5, 0.1] }, /winRate/], [{ winRate: [0, 1.5] }, /winRate/]] as const) {
          await expectThrows(f, [...a, c as WinRateConfig], re, { class: RangeError, hint: "the stub's contract lists the errors", name: "sophiaStepWithWinRate" });
        }
        await expectThrows(f, [[1, 2], [1, NaN], [0, 0], [0, 0], {}], /grad/, { class: RangeError, hint: "a NaN gradient must not reach the weights", name: "sophiaStepWithWinRate" });
    } },
    { name: "training: every step's win rate in [0.1, 0.5] once reachable", points: 5, run: async (f) => {
        const r = await studentRun(f);
        const bad = r.rates.findIndex((w, s) => r.reachable[s] && (w < 0.1 || w > 0.5));
        if (bad >= 0) fail(`training with your step: at step ${bad} the win rate is ${r.rates[bad]!.toFixed(4)}, outside [0.1, 0.5] (the fixed ρ = 0.05 of the reference gives ${(fixedRun ??= await train(null)).rates[bad]!.toFixed(4)})`, HINT);
    } },
    { name: "training: the loss follows the fixed-ρ run (last 10 steps within 0.08)", points: 4, run: async (f) => {
        const mine = meanLast10((await studentRun(f)).losses), fixed = meanLast10((fixedRun ??= await train(null)).losses);
        if (!(Math.abs(mine - fixed) <= 0.08)) fail(`the mean loss of the last 10 steps is ${mine.toFixed(4)}, the fixed-ρ run's ${fixed.toFixed(4)}: more than 0.08 apart`, `a ρ in the band changes how many coordinates are clipped, not the direction of the steps; ${HINT}`);
    } },
    { name: "300,000 coordinates", points: 2, run: async (f) => {
        const n = 300_000; // above what a spread into a call's arguments takes (about 120,000 here)
        const theta = largeArray(n, 31), grad = largeArray(n, 32, (_i, r) => (r() - 0.5) * 1e-2), m = new Array<number>(n).fill(0), h = largeArray(n, 33, (_i, r) => (r() < 0.1 ? 0 : r() * 1e-6));
        await checkStep(f, theta, grad, m, h, { bs: 512 }, "300,000 coordinates: sort their thresholds, no spread into Math.min/Math.max", "sophiaStepWithWinRate(300,000 coordinates, bs 512)");
    } },
  ],
});
