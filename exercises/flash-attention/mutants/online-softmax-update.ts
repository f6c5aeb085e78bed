import type { Mutant } from "../../harness/index.js";
import type { onlineSoftmaxUpdate, OnlineSoftmaxState } from "../online-softmax-update.js";

type F = typeof onlineSoftmaxUpdate;

interface Flaws { noAccRescale?: boolean; noLRescale?: boolean; noGuard?: boolean; blockMaxOnly?: boolean; firstAsBlockMax?: boolean; noValidation?: boolean; plainError?: boolean }

function update(state: OnlineSoftmaxState, scores: number[], values: number[][], o: Flaws): OnlineSoftmaxState {
  const d = state.acc.length;
  if (!o.noValidation && (values.length !== scores.length || values.some((v) => v.length !== d))) {
    const msg = `values must have one row of length d = ${d} per score`;
    throw o.plainError ? new Error(msg) : new RangeError(msg);
  }
  const kept = scores.filter((s) => s !== -Infinity);
  const bmax = o.firstAsBlockMax ? (kept.length ? kept[0] : -Infinity) : Math.max(-Infinity, ...scores);
  if (!o.noGuard && bmax === -Infinity) return { m: state.m, l: state.l, acc: [...state.acc] };
  const m = o.blockMaxOnly ? bmax : Math.max(state.m, bmax);
  const alpha = !o.noGuard && state.m === -Infinity ? 0 : Math.exp(state.m - m);
  let l = (o.noLRescale ? 1 : alpha) * state.l;
  const acc = state.acc.map((a) => (o.noAccRescale ? a : alpha * a));
  scores.forEach((s, k) => {
    const p = Math.exp(s - m);
    l += p;
    values[k].forEach((v, x) => { acc[x] += p * v; });
  });
  return { m, l, acc };
}

export const mutants: Record<string, Mutant<F>> = {
  "forgets to rescale the accumulator by exp(m_old − m_new)": {
    impl: (s, sc, v) => update(s, sc, v, { noAccRescale: true }),
    caughtBy: ["worked example (two blocks of one key)", "rescales ℓ and acc when the max grows"],
  },
  "forgets to rescale ℓ by exp(m_old − m_new)": {
    impl: (s, sc, v) => update(s, sc, v, { noLRescale: true }),
    caughtBy: "rescales ℓ and acc when the max grows",
  },
  "no guard for a fully masked block (NaN from −∞ − (−∞))": {
    impl: (s, sc, v) => update(s, sc, v, { noGuard: true }),
    caughtBy: "fully masked and empty blocks",
  },
  "takes the block's max instead of the running max": {
    impl: (s, sc, v) => update(s, sc, v, { blockMaxOnly: true }),
    caughtBy: "ragged blocks over random rows",
  },
  "takes the block's first kept score as its max (assumes a sorted block)": {
    impl: (s, sc, v) => update(s, sc, v, { firstAsBlockMax: true }),
    caughtBy: "rescales ℓ and acc when the max grows",
  },
  "no validation of the value rows": {
    impl: (s, sc, v) => update(s, sc, v, { noValidation: true }),
    caughtBy: "rejects mismatched values (RangeError)",
  },
  "throws a plain Error instead of a RangeError": {
    impl: (s, sc, v) => update(s, sc, v, { plainError: true }),
    caughtBy: "rejects mismatched values (RangeError)",
  },
  "naive exp without subtracting the max": {
    impl: (state, scores, values) => {
      const l = state.l * Math.exp(state.m === -Infinity ? 0 : state.m) + scores.reduce((a, s) => a + Math.exp(s), 0);
      const acc = state.acc.map((a, x) => a * Math.exp(state.m === -Infinity ? 0 : state.m) + scores.reduce((t, s, k) => t + Math.exp(s) * values[k][x], 0));
      return { m: 0, l, acc };
    },
    caughtBy: "logits of ±1e4",
  },
};
