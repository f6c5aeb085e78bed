import type { flashTileStep, TileInput, TileState } from "../flash-tile-step.js";

type F = typeof flashTileStep;

function step(t: TileInput, o: { noRescale?: boolean; unnormalised?: boolean; ignoreMask?: boolean; noGuard?: boolean }): TileState {
  const out: TileState = { O: [], l: [], m: [] };
  t.Q.forEach((q, r) => {
    const s = t.K.map((k, c) => (!o.ignoreMask && t.keep && !t.keep[r][c] ? -Infinity : t.scale * k.reduce((a, x, i) => a + x * q[i], 0)));
    const mt = Math.max(...s);
    if (!o.noGuard && mt === -Infinity) { out.O.push([...t.O[r]]); out.l.push(t.l[r]); out.m.push(t.m[r]); return; }
    const p = s.map((x) => Math.exp(x - mt));
    const lt = p.reduce((a, b) => a + b, 0);
    const mNew = Math.max(t.m[r], mt);
    const alpha = !o.noGuard && t.m[r] === -Infinity ? 0 : Math.exp(t.m[r] - mNew);
    const beta = Math.exp(mt - mNew);
    const lNew = alpha * t.l[r] + beta * lt;
    const pv = t.O[r].map((_, x) => p.reduce((a, pc, c) => a + pc * t.V[c][x], 0));
    const old = (x: number) => (o.noRescale ? t.l[r] * t.O[r][x] : t.l[r] * alpha * t.O[r][x]);
    out.O.push(t.O[r].map((_, x) => (old(x) + beta * pv[x]) / (o.unnormalised ? 1 : lNew)));
    out.l.push(lNew);
    out.m.push(mNew);
  });
  return out;
}

export const mutants: Record<string, F> = {
  "forgets to rescale the old O by exp(m_old − m_new)": (t) => step(t, { noRescale: true }),
  "returns the unnormalised accumulator (no division by ℓ_new)": (t) => step(t, { unnormalised: true }),
  "ignores the keep mask": (t) => step(t, { ignoreMask: true }),
  "no guard for rows whose keys are all masked (NaN)": (t) => step(t, { noGuard: true }),
};
