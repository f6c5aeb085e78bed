import type { onlineSoftmaxUpdate, OnlineSoftmaxState } from "../online-softmax-update.js";

type F = typeof onlineSoftmaxUpdate;

function update(state: OnlineSoftmaxState, scores: number[], values: number[][], o: { noAccRescale?: boolean; noLRescale?: boolean; noGuard?: boolean; blockMaxOnly?: boolean }): OnlineSoftmaxState {
  const bmax = Math.max(-Infinity, ...scores);
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

export const mutants: Record<string, F> = {
  "forgets to rescale the accumulator by exp(m_old − m_new)": (s, sc, v) => update(s, sc, v, { noAccRescale: true }),
  "forgets to rescale ℓ by exp(m_old − m_new)": (s, sc, v) => update(s, sc, v, { noLRescale: true }),
  "no guard for a fully masked block (NaN from −∞ − (−∞))": (s, sc, v) => update(s, sc, v, { noGuard: true }),
  "takes the block's max instead of the running max": (s, sc, v) => update(s, sc, v, { blockMaxOnly: true }),
  "naive exp without subtracting the max": (state, scores, values) => {
    const l = state.l * Math.exp(state.m === -Infinity ? 0 : state.m) + scores.reduce((a, s) => a + Math.exp(s), 0);
    const acc = state.acc.map((a, x) => a * Math.exp(state.m === -Infinity ? 0 : state.m) + scores.reduce((t, s, k) => t + Math.exp(s) * values[k][x], 0));
    return { m: 0, l, acc };
  },
};
