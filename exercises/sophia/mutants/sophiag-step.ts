import { sophiagStep as lib, validateSophiaG } from "../../../lib/sophia/index.js";
import type { sophiagStep, SophiaConfig } from "../sophiag-step.js";

type F = typeof sophiagStep;
const TRAIN = "trains lib/nn's model like the reference (30 steps, k = 4)";
const RANDOM = "random vectors, zero and negative curvature";

function make(update: (t: number, g: number, m: number, h: number, c: { lr: number; b1: number; rho: number; wd: number; bs: number }) => [number, number]): F {
  return (theta, grad, m, h, config: SophiaConfig) => {
    lib(theta, grad, m, h, config); // same validation as the reference
    const v = validateSophiaG(config), bs = config.bs ?? 5120;
    const c = { lr: v.lr, b1: v.betas[0], rho: v.rho, wd: v.weightDecay, bs };
    const out = theta.map((t, i) => update(t, grad[i]!, m[i]!, h[i]!, c));
    return { theta: out.map((o) => o[0]), m: out.map((o) => o[1]) };
  };
}
const ema = (m: number, g: number, b1: number) => b1 * m + (1 - b1) * g;

export const mutants: Record<string, { impl: F; caughtBy: string | string[] }> = {
  "ρ without the batch size (Algorithm 3's γ·h with h that the code keeps without bs)": {
    impl: make((t, g, m, h, c) => { const mi = ema(m, g, c.b1); return [t * (1 - c.lr * c.wd) - c.lr * Math.sign(mi) * Math.min(Math.abs(mi) / (c.rho * h + 1e-15), 1), mi]; }),
    caughtBy: [RANDOM, TRAIN] },
  "weight decay applied to the updated weight (coupled order)": {
    impl: make((t, g, m, h, c) => { const mi = ema(m, g, c.b1); return [(t - c.lr * Math.sign(mi) * Math.min(Math.abs(mi) / (c.rho * c.bs * h + 1e-15), 1)) * (1 - c.lr * c.wd), mi]; }),
    caughtBy: [RANDOM, TRAIN] },
  "the paper's max{ρ·bs·h, ε} (clips negative curvature to a descent step)": {
    impl: make((t, g, m, h, c) => { const mi = ema(m, g, c.b1); return [t * (1 - c.lr * c.wd) - c.lr * Math.sign(mi) * Math.min(Math.abs(mi) / Math.max(c.rho * c.bs * h, 1e-15), 1), mi]; }),
    caughtBy: RANDOM },
  "uses the gradient instead of the momentum in the ratio": {
    impl: make((t, g, m, h, c) => { const mi = ema(m, g, c.b1); return [t * (1 - c.lr * c.wd) - c.lr * Math.sign(g) * Math.min(Math.abs(g) / (c.rho * c.bs * h + 1e-15), 1), mi]; }),
    caughtBy: ["the stub's example", RANDOM, TRAIN] },
  "no validation": {
    impl: (theta, grad, m, h, config) => { try { return (() => { const r = lib(theta, grad, m, h, { ...config, rho: config.rho && config.rho > 0 ? config.rho : 0.04, bs: config.bs && config.bs > 0 ? config.bs : 5120, betas: [0.9, 0.99], lr: Math.abs(config.lr ?? 1e-4) }); return { theta: Array.from(r.theta), m: Array.from(r.m) }; })(); } catch { return { theta: theta.slice(), m: m.slice() }; } },
    caughtBy: "bad input names the field" },
};
