import { hessianSchedule as lib } from "../../../lib/sophia/index.js";
import type { hessianSchedule } from "../hessian-schedule.js";

type F = typeof hessianSchedule;
const ok = (s: number, k: number) => { lib(s, k); };
const range = (n: number) => Array.from({ length: n }, (_, i) => i);

export const mutants: Record<string, { impl: F; caughtBy: string | string[] }> = {
  "refreshes at i % k == 0 (before any step has moved h's inputs, one step early)": { impl: (s, k) => { ok(s, k); return range(s).filter((i) => i % k === 0); }, caughtBy: ["the stub's example", "k = 1, k > steps, steps = 0", "k not dividing the step count (random)"] },
  "counts steps from 1 ((i + 1) % k == 0 shifted: returns 1-based indices)": { impl: (s, k) => { ok(s, k); return range(s).filter((i) => i % k === k - 1).map((i) => i + 1); }, caughtBy: ["the stub's example", "k = 1, k > steps, steps = 0", "k not dividing the step count (random)"] },
  "assumes k divides steps (drops a trailing partial interval wrongly)": { impl: (s, k) => { ok(s, k); return range(Math.floor(s / k) * k - (s % k === 0 ? 0 : k)).filter((i) => i % k === k - 1); }, caughtBy: ["the stub's example", "k not dividing the step count (random)"] },
  "no validation": { impl: (s, k) => range(Math.max(0, s)).filter((i) => i % k === k - 1), caughtBy: "bad input names the field" },
};
