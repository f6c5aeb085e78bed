import type { planDispatch } from "../plan-dispatch.js";

type F = typeof planDispatch;
interface Mistake { globalCapacity?: boolean; tiesHigh?: boolean; tokenMajor?: boolean; receiverAtSenderOffset?: boolean; selfMessages?: boolean; sendDropped?: boolean }

/** A dispatch planner with one mistake switched on. */
function plan(m: Mistake): F {
  return (routings, o) => {
    const P = o.epSize, E = o.numExperts, k = o.topK, h = o.hiddenSize, L = E / P;
    if (routings.length !== P) throw new RangeError(`routings must hold one routing per rank (epSize = ${P}), got ${routings.length}`);
    routings.forEach((r, i) => { if (r.experts.length !== r.gates.length) throw new RangeError(`routings[${i}]: experts and gates must have the same length`); });
    const total = routings.reduce((s, r) => s + r.experts.length / k, 0);
    const kept = routings.map((r) => {
      const N = r.experts.length / k, T = m.globalCapacity ? total : N;
      const cap = o.capacityFactor === null ? Infinity : Math.ceil(((T * k) / E) * o.capacityFactor);
      const out = new Array<number>(r.experts.length).fill(0);
      for (let e = 0; e < E; e++) {
        const slots = Array.from(r.experts).flatMap((x, s) => (x === e ? [s] : []));
        if (o.dropPolicy === "probs") slots.sort((a, b) => r.gates[b] - r.gates[a] || (m.tiesHigh ? b - a : a - b));
        slots.forEach((s, i) => { if (i < cap || m.sendDropped) out[s] = 1; });
      }
      return out;
    });
    const sendOrder = routings.map((r, i) => kept[i].flatMap((v, s) => (v ? [s] : [])).sort((a, b) => (m.tokenMajor ? a - b : r.experts[a] - r.experts[b] || a - b)));
    const splits = routings.map((r, i) => Array.from({ length: P }, (_, d) => sendOrder[i].filter((s) => Math.floor(r.experts[s] / L) === d).length));
    const messages = [];
    for (let r = 0; r < P; r++) for (let d = 0; d < P; d++) {
      if ((r === d && !m.selfMessages) || splits[r][d] === 0) continue;
      const offset = h * splits[r].slice(0, d).reduce((a, b) => a + b, 0);
      messages.push({ sender: r, receiver: d, offset, length: h * splits[r][d], receiverOffset: m.receiverAtSenderOffset ? offset : h * splits.slice(0, r).reduce((a, row) => a + row[d], 0) });
    }
    return { kept, sendOrder, splits, messages };
  };
}

export const mutants = {
  "computes the capacity from all ranks' tokens instead of the rank's own": { impl: plan({ globalCapacity: true }), caughtBy: "drops: each rank's own capacity, both policies, ties to the lower token index" },
  "breaks equal gates toward the later token under the \"probs\" policy": { impl: plan({ tiesHigh: true }), caughtBy: "drops: each rank's own capacity, both policies, ties to the lower token index" },
  "keeps the pairs in token order instead of grouping them by expert": { impl: plan({ tokenMajor: true }), caughtBy: ["send order: by expert, then token (k = E, experts without tokens)", "every message's offset, length and landing offset (random routings)"] },
  "lands each message at its offset in the sender's buffer": { impl: plan({ receiverAtSenderOffset: true }), caughtBy: ["worked example (no capacity)", "every message's offset, length and landing offset (random routings)"] },
  "sends a rank's own segment as a message": { impl: plan({ selfMessages: true }), caughtBy: ["worked example (no capacity)", "every message's offset, length and landing offset (random routings)"] },
  "sends the dropped pairs too": { impl: plan({ sendDropped: true }), caughtBy: ["drops: each rank's own capacity, both policies, ties to the lower token index", "every message's offset, length and landing offset (random routings)"] },
} satisfies Record<string, { impl: F; caughtBy: string | string[] }>;
