import type { sizeBasedWrap } from "../size-based-wrap.js";

type F = typeof sizeBasedWrap;
const guard = (ls: number[], m: number) => {
  if (!Array.isArray(ls) || ls.length === 0) throw new RangeError("layerParams must hold at least one layer");
  ls.forEach((n, i) => { if (!Number.isInteger(n) || n < 0) throw new RangeError(`layerParams[${i}] must be an integer >= 0, got ${n}`); });
  if (!Number.isInteger(m) || m < 1) throw new RangeError(`minNumParams must be an integer >= 1, got ${m}`);
};
const wrap = (ls: number[], m: number, o: { strict?: boolean; mergeRest?: boolean; dropRest?: boolean; noCheck?: boolean }) => {
  if (!o.noCheck) guard(ls, m);
  const units: number[][] = [];
  let cur: number[] = [], n = 0;
  ls.forEach((x, i) => { cur.push(i); n += x; if (o.strict ? n > m : n >= m) { units.push(cur); cur = []; n = 0; } });
  if (cur.length) { if (o.mergeRest && units.length) units[units.length - 1].push(...cur); else if (!o.dropRest) units.push(cur); }
  const sizes = units.map((u) => u.reduce((s, i) => s + ls[i], 0));
  return { units, maxUnitParams: Math.max(0, ...sizes) };
};

export const mutants: Record<string, { impl: F; caughtBy: string | string[] }> = {
  "closes a group only when it exceeds min_num_params": { impl: (ls, m) => wrap(ls, m, { strict: true }), caughtBy: "a group closes when it reaches min_num_params (not when it passes it)" },
  "merges the remainder into the last unit": { impl: (ls, m) => wrap(ls, m, { mergeRest: true }), caughtBy: ["the stub's example", "the remainder stays in the root's unit"] },
  "drops the remainder": { impl: (ls, m) => wrap(ls, m, { dropRest: true }), caughtBy: ["the stub's example", "the remainder stays in the root's unit"] },
  "no input checks": { impl: (ls, m) => wrap(ls, m, { noCheck: true }), caughtBy: "bad input" },
};
