import type { Mutant } from "../../harness/index.js";
import type { flashTileStep, TileInput, TileState } from "../flash-tile-step.js";

type F = typeof flashTileStep;

interface Flaws { noRescale?: boolean; unnormalised?: boolean; oldOUnnormalised?: boolean; ignoreMask?: boolean; noGuard?: boolean; noValidation?: boolean }

function step(t: TileInput, o: Flaws): TileState {
  if (!o.noValidation) {
    const d = t.Q[0]?.length ?? 0;
    if (t.K.length !== t.V.length) throw new RangeError(`K must have the same number of rows as V (${t.V.length}), got ${t.K.length}`);
    if (t.O.length !== t.Q.length || t.l.length !== t.Q.length || t.m.length !== t.Q.length) throw new RangeError("O, l and m must have B_r rows");
    for (const [name, rows] of [["Q", t.Q], ["K", t.K], ["V", t.V], ["O", t.O]] as const) rows.forEach((r) => { if (r.length !== d) throw new RangeError(`${name} rows must have length d = ${d}`); });
  }
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
    const old = (x: number) => (o.noRescale ? t.l[r] * t.O[r][x] : (o.oldOUnnormalised ? 1 : t.l[r]) * alpha * t.O[r][x]);
    out.O.push(t.O[r].map((_, x) => (old(x) + beta * pv[x]) / (o.unnormalised ? 1 : lNew)));
    out.l.push(lNew);
    out.m.push(mNew);
  });
  return out;
}

export const mutants: Record<string, Mutant<F>> = {
  "forgets to rescale the old O by exp(m_old − m_new)": { impl: (t) => step(t, { noRescale: true }), caughtBy: "second step rescales the old O and ℓ" },
  "returns the unnormalised accumulator (no division by ℓ_new)": { impl: (t) => step(t, { unnormalised: true }), caughtBy: "first step from the empty state" },
  "treats the old O as unnormalised (does not multiply it back by the old ℓ)": { impl: (t) => step(t, { oldOUnnormalised: true }), caughtBy: "second step rescales the old O and ℓ" },
  "ignores the keep mask": { impl: (t) => step(t, { ignoreMask: true }), caughtBy: "fully masked rows stay unchanged, without NaN" },
  "no guard for rows whose keys are all masked (NaN)": { impl: (t) => step(t, { noGuard: true }), caughtBy: "fully masked rows stay unchanged, without NaN" },
  "no validation of the tile shapes": { impl: (t) => step(t, { noValidation: true }), caughtBy: "rejects inconsistent tiles (RangeError)" },
};
