// Regenerates src/data/sophia-runs.json (about 3 minutes on a shared 2-core machine):
//   npx tsx scripts/sophia-measure.ts
// AdamW, Lion and SophiaG on lib/nn's character model: a learning-rate sweep per optimizer on
// seed 0, then the best rate of each (lowest mean loss over the last 50 steps) on seeds 0, 1, 2;
// SophiaH (Hutchinson via a finite-difference Hvp, the code's step) the same way; and SophiaG's
// sensitivity to ρ and k at its best rate (seed 0). Every run clips the gradient norm at 1.0, as
// both training scripts of the Sophia repository do (grad_clip = 1.0), SophiaG's GNB gradient too.
// Wall-clock times are recorded per step (the curvature estimate included in the step it follows),
// with the machine and its load (`uptime`) before and after: they depend on the machine and on what
// else runs on it.
import { writeFileSync } from "node:fs";
import { execSync } from "node:child_process";
import os from "node:os";
import { trainCompare, type OptimizerName } from "../lib/sophia/index.js";

const steps = 300, gradClip = 1;
const grid: Record<OptimizerName, number[]> = { adamw: [3e-3, 1e-2, 3e-2], lion: [1e-3, 3e-3, 1e-2], sophiag: [1e-3, 3e-3, 5e-3], sophiah: [1e-3, 3e-3] };
const round = (x: number, d = 1e4) => Math.round(x * d) / d;
const tail = (a: number[]) => a.slice(-50).reduce((s, v) => s + v, 0) / 50;
const uptime = () => { try { return execSync("uptime", { encoding: "utf8" }).trim(); } catch { return `loadavg ${os.loadavg().map((v) => v.toFixed(2)).join(", ")}`; } };
type Run = { optimizer: OptimizerName; lr: number; seed: number; rho?: number; k?: number; losses: number[]; ms: number[]; passes: number; msPerStep: number; clipFraction: number[]; gradClipRate: number; final: number; negativeFraction: number[]; divergedAt: number | null };
function run(optimizer: OptimizerName, lr: number, seed: number, extra: { rho?: number; k?: number } = {}): Run {
  const r = trainCompare({ optimizer, lr, steps, seed, gradClip, ...extra });
  const done = r.losses.length, total = r.ms.at(-1) ?? 0;
  const out: Run = {
    optimizer, lr, seed, ...extra, losses: r.losses.map((v) => round(v)), ms: r.ms.map((v) => round(v, 10)), passes: r.passes.at(-1) ?? 0,
    msPerStep: round(total / Math.max(1, done), 100), clipFraction: r.clipFraction.filter((_, i) => i % 10 === 0).map((v) => round(v)),
    gradClipRate: round(r.normClipped.filter(Boolean).length / Math.max(1, r.normClipped.length)),
    final: r.divergedAt === null ? round(tail(r.losses)) : Infinity, negativeFraction: r.negativeFraction.map((v) => round(v)), divergedAt: r.divergedAt,
  };
  console.error(optimizer, lr, seed, JSON.stringify(extra), out.final, `${out.msPerStep} ms/step`, `norm clipped on ${(100 * out.gradClipRate).toFixed(0)} % of steps`);
  return out;
}
const machine = { cpu: os.cpus()[0]?.model ?? "unknown", cores: os.cpus().length, node: process.version, platform: `${os.platform()} ${os.arch()}` };
const loadBefore = uptime(), startedAt = new Date().toISOString();
const sweep: Run[] = [], seeds: Run[] = [], sensitivity: Run[] = [];
const best: Partial<Record<OptimizerName, number>> = {};
for (const opt of Object.keys(grid) as OptimizerName[]) {
  const rs = grid[opt].map((lr) => run(opt, lr, 0));
  sweep.push(...rs);
  const b = rs.reduce((a, r) => (r.final < a.final ? r : a));
  best[opt] = b.lr;
  seeds.push(b, run(opt, b.lr, 1), run(opt, b.lr, 2));
}
for (const rho of [0.01, 0.2, 1]) sensitivity.push(run("sophiag", best.sophiag!, 0, { rho }));
for (const k of [1, 3, 50]) sensitivity.push(run("sophiag", best.sophiag!, 0, { k }));
const loadAfter = uptime();
writeFileSync(new URL("../src/data/sophia-runs.json", import.meta.url), JSON.stringify({
  command: "npx tsx scripts/sophia-measure.ts", startedAt, machine, load: { before: loadBefore, after: loadAfter },
  steps, gradClip, batch: { sequences: 8, positions: 16, tokens: 128 }, defaults: { rho: 0.05, k: 10, weightDecay: 0.1 },
  grid, best,
  sweep: sweep.map((r) => ({ ...r, losses: undefined, ms: undefined, clipFraction: undefined })),
  seeds,
  sensitivity: sensitivity.map((r) => ({ ...r, ms: undefined, clipFraction: undefined })),
}) + "\n");
