import type { auxLossGradient } from "../aux-loss-gradient.js";

type F = typeof auxLossGradient;
interface Mistake { noJacobian?: boolean; normaliseByN?: boolean; tiesHigh?: boolean; gatesOnly?: boolean }

/** The loss and its gradient with one mistake switched on. */
function aux(m: Mistake): F {
  return (logits, N, E, k) => {
    if (N === 0) return { loss: 0, dLogits: [] };
    const p = Array.from({ length: N }, (_, t) => { const l = logits.slice(t * E, (t + 1) * E), mx = Math.max(...l), e = l.map((x) => Math.exp(x - mx)), z = e.reduce((a, b) => a + b, 0); return e.map((x) => Math.fround(x / z)); });
    const top = (row: number[]) => row.map((v, i) => [v, i]).sort((a, b) => b[0] - a[0] || (m.tiesHigh ? b[1] - a[1] : a[1] - b[1])).slice(0, k).map((x) => x[1]);
    const c = new Array(E).fill(0), P = new Array(E).fill(0);
    p.forEach((row) => { const sel = top(row); sel.forEach((i) => c[i]++); row.forEach((v, i) => { if (!m.gatesOnly || sel.includes(i)) P[i] += v / N; }); });
    const f = c.map((x) => x / ((m.normaliseByN ? 1 : k) * N));
    const loss = E * f.reduce((s, v, i) => s + v * P[i], 0);
    const a = f.map((v) => (E * v) / N); // ∂loss/∂p_{t,i}
    const dLogits = p.flatMap((row) => { const dot = a.reduce((s, v, i) => s + v * row[i], 0); return row.map((v, i) => (m.noJacobian ? a[i] : v * (a[i] - dot))); });
    return { loss, dLogits };
  };
}

export const mutants = {
  "returns ∂loss/∂p, forgetting the softmax's Jacobian": { impl: aux({ noJacobian: true }), caughtBy: ["worked example", "random logits"] },
  "normalises f by N instead of k·N": { impl: aux({ normaliseByN: true }), caughtBy: ["worked example", "random logits"] },
  "counts equal probabilities toward the higher expert index": { impl: aux({ tiesHigh: true }), caughtBy: ["worked example", "ties in the top-k go to the lower expert index"] },
  "averages only the selected experts' probabilities into P": { impl: aux({ gatesOnly: true }), caughtBy: ["worked example", "random logits"] },
} satisfies Record<string, { impl: F; caughtBy: string | string[] }>;
