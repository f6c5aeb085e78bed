// Regenerates src/data/sophia-runs.json (about 3 minutes on a shared 2-core machine):
//   npx tsx scripts/sophia-measure.ts
// AdamW, Lion and SophiaG on lib/nn's character model: a learning-rate sweep per optimizer on
// seed 0, then the best rate of each (lowest mean loss over the last 50 steps) on seeds 0, 1, 2;
// SophiaH (Hutchinson via a finite-difference Hvp, the code's step) the same way; and SophiaG's sensitivity to ρ and k at its best rate (seed 0).
import { writeFileSync } from "node:fs";
import { trainCompare, trailingMean, type OptimizerName } from "../lib/sophia/index.js";

const steps = 300;
const grid: Record<OptimizerName, number[]> = { adamw: [3e-3, 1e-2, 3e-2], lion: [1e-3, 3e-3, 1e-2], sophiag: [1e-3, 3e-3, 5e-3], sophiah: [1e-3, 3e-3] };
const round = (x: number) => Math.round(x * 1e4) / 1e4;
const tail = (a: number[]) => a.slice(-50).reduce((s, v) => s + v, 0) / 50;
type Run = { optimizer: OptimizerName; lr: number; seed: number; rho?: number; k?: number; losses: number[]; passes: number; msPerStep: number; clipFraction: number[]; final: number; negativeFraction: number[]; divergedAt: number | null };
function run(optimizer: OptimizerName, lr: number, seed: number, extra: { rho?: number; k?: number } = {}): Run {
  const t0 = performance.now();
  const r = trainCompare({ optimizer, lr, steps, seed, ...extra });
  const ms = (performance.now() - t0) / steps;
  const out: Run = { optimizer, lr, seed, ...extra, losses: r.losses.map(round), passes: r.passes.at(-1)!, msPerStep: round(ms), clipFraction: r.clipFraction.filter((_, i) => i % 10 === 0).map(round), final: r.divergedAt === null ? round(tail(r.losses)) : Infinity, negativeFraction: r.negativeFraction.map(round), divergedAt: r.divergedAt };
  console.error(optimizer, lr, seed, JSON.stringify(extra), out.final, `${ms.toFixed(1)} ms/step`);
  return out;
}
const sweep: Run[] = [], seeds: Run[] = [], sensitivity: Run[] = [];
const best: Partial<Record<OptimizerName, number>> = {};
for (const opt of Object.keys(grid) as OptimizerName[]) {
  const rs = grid[opt].map((lr) => run(opt, lr, 0));
  sweep.push(...rs);
  const b = rs.reduce((a, r) => (r.final < a.final ? r : a));
  best[opt] = b.lr;
  seeds.push(b, run(opt, b.lr, 1), run(opt, b.lr, 2));
}
for (const rho of [0.01, 0.2]) sensitivity.push(run("sophiag", best.sophiag!, 0, { rho }));
for (const k of [1, 50]) sensitivity.push(run("sophiag", best.sophiag!, 0, { k }));
const strip = (r: Run) => ({ ...r, losses: trailingMean(r.losses, 1) });
writeFileSync(new URL("../src/data/sophia-runs.json", import.meta.url), JSON.stringify({
  command: "npx tsx scripts/sophia-measure.ts", steps, batch: { sequences: 8, positions: 16, tokens: 128 }, defaults: { rho: 0.05, k: 10, weightDecay: 0.1 },
  grid, best, sweep: sweep.map((r) => ({ ...r, losses: undefined, clipFraction: undefined })), seeds: seeds.map(strip), sensitivity: sensitivity.map((r) => ({ ...r, clipFraction: undefined })),
}) + "\n");
