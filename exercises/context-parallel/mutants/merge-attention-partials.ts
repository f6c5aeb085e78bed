import type { mergeAttentionPartials, AttentionPartial } from "../merge-attention-partials.js";

type F = typeof mergeAttentionPartials;

function checked(body: (a: AttentionPartial, b: AttentionPartial, d: number) => AttentionPartial): F {
  return (a, b) => {
    const rows = a.lse.length;
    if (b.lse.length !== rows) throw new RangeError(`b.lse must have ${rows} rows like a.lse, got ${b.lse.length}`);
    if (a.O.length !== b.O.length || a.O.length % rows !== 0) throw new RangeError(`a.O must have rows·d elements with the same d as b.O: ${a.O.length} and ${b.O.length} elements for ${rows} rows`);
    return body(a, b, a.O.length / rows);
  };
}

/** Row by row with weights w(la, lb) and merged lse l(la, lb). */
const rowWise = (w: (la: number, lb: number) => [number, number, number]) => checked((a, b, d) => {
  const O = new Float32Array(a.O.length), lse = new Float32Array(a.lse.length);
  for (let i = 0; i < lse.length; i++) {
    const [wa, wb, l] = w(a.lse[i], b.lse[i]);
    lse[i] = l;
    for (let x = 0; x < d; x++) O[i * d + x] = wa * a.O[i * d + x] + wb * b.O[i * d + x];
  }
  return { O, lse };
});

export const mutants = {
  "exponentiates the logsumexps directly (e^1e4 = Infinity)": {
    impl: rowWise((la, lb) => { const s = Math.exp(la) + Math.exp(lb); return [Math.exp(la) / s, Math.exp(lb) / s, Math.log(s)]; }),
    caughtBy: "logsumexps of ±1e4 (exp overflows)",
  },
  "subtracts the max without a guard: two empty rows give e^(−∞ − (−∞)) = NaN": {
    impl: rowWise((la, lb) => { const m = Math.max(la, lb), ea = Math.exp(la - m), eb = Math.exp(lb - m); return [ea / (ea + eb), eb / (ea + eb), m + Math.log(ea + eb)]; }),
    caughtBy: "a part that saw only masked keys (lse = −∞), and rows empty in both",
  },
  "ring-flash-attention's sigmoid form without a guard for −∞": {
    impl: rowWise((la, lb) => { const s = 1 / (1 + Math.exp(la - lb)); return [1 - s, s, la - Math.log(1 / (1 + Math.exp(lb - la)))]; }),
    caughtBy: "a part that saw only masked keys (lse = −∞), and rows empty in both",
  },
  "adds the two outputs and keeps the larger logsumexp": {
    impl: rowWise((la, lb) => [la === -Infinity ? 0 : 1, lb === -Infinity ? 0 : 1, Math.max(la, lb)]),
    caughtBy: ["the stub's example", "random blocks of attention"],
  },
  "shifts every row by one maximum over all rows (Math.max(...lse))": {
    impl: checked((a, b, d) => {
      const m = Math.max(...a.lse, ...b.lse);
      const O = new Float32Array(a.O.length), lse = new Float32Array(a.lse.length);
      for (let i = 0; i < lse.length; i++) {
        const ea = Math.exp(a.lse[i] - m), eb = Math.exp(b.lse[i] - m), s = ea + eb;
        lse[i] = s === 0 ? -Infinity : m + Math.log(s);
        for (let x = 0; x < d; x++) O[i * d + x] = s === 0 ? 0 : (ea * a.O[i * d + x] + eb * b.O[i * d + x]) / s;
      }
      return { O, lse };
    }),
    caughtBy: ["logsumexps of ±1e4 (exp overflows)", "a million rows"],
  },
  "writes the result into a and returns it": {
    impl: checked((a, b, d) => {
      for (let i = 0; i < a.lse.length; i++) {
        const la = a.lse[i], lb = b.lse[i];
        if (la === -Infinity && lb === -Infinity) continue;
        const m = Math.max(la, lb), l = m + Math.log(Math.exp(la - m) + Math.exp(lb - m));
        for (let x = 0; x < d; x++) a.O[i * d + x] = Math.exp(la - l) * a.O[i * d + x] + Math.exp(lb - l) * b.O[i * d + x];
        a.lse[i] = l;
      }
      return a;
    }),
    caughtBy: "the stub's example",
  },
} satisfies Record<string, { impl: F; caughtBy: string | string[] }>;
