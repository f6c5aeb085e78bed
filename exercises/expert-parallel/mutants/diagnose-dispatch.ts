import type { diagnoseDispatch } from "../diagnose-dispatch.js";

type F = typeof diagnoseDispatch;
interface Mistake { noSelf?: boolean; oneLink?: boolean; noAlpha?: boolean; hotBySent?: boolean }

/** A diagnosis with one mistake switched on. */
function diagnose(m: Mistake): F {
  return (messages, s) => {
    const P = s.numRanks, tok = s.hiddenSize * s.bytesPerElement, routed = s.tokensPerRank * s.topK;
    const sent = new Array(P).fill(0), got = new Array(P).fill(0);
    for (const x of messages) {
      if (x.bytes % tok !== 0) throw new RangeError(`message of ${x.bytes} bytes is not a whole number of tokens`);
      sent[x.sender] += x.bytes / tok; got[x.receiver] += x.bytes / tok;
    }
    const receivedPerRank = got.map((v, d) => (m.noSelf ? v : v + routed - sent[d]));
    const key = m.hotBySent ? sent : receivedPerRank;
    const hotRank = key.reduce((b, v, d) => (v > key[b] ? d : b), 0);
    const measured = messages.length ? Math.max(...messages.map((x) => x.tEnd)) - Math.min(...messages.map((x) => x.t)) : 0;
    const S = routed * tok, g = m.oneLink || !s.topology ? P : Math.min(s.topology.ranksPerNode, P);
    const intra = ((g - 1) * S) / P / s.cost.bandwidthBytesPerS, inter = s.topology && !m.oneLink ? ((P - g) * S) / P / s.topology.interNodeBandwidthBytesPerS : 0;
    const balanced = P === 1 || S === 0 ? 0 : (m.noAlpha ? 0 : s.cost.alphaS) + Math.max(intra, inter);
    return { receivedPerRank, hotRank, slowdown: balanced === 0 ? (measured === 0 ? 1 : Infinity) : measured / balanced };
  };
}

export const mutants = {
  "counts only the logged messages: a rank's pairs for its own experts are missing": { impl: diagnose({ noSelf: true }), caughtBy: ["worked example", "each rank's load, its own pairs included"] },
  "times the balanced all-to-all on the link inside a node only, even across nodes": { impl: diagnose({ oneLink: true }), caughtBy: "slowdown against balanced routing, with α and across nodes" },
  "leaves α out of the balanced time": { impl: diagnose({ noAlpha: true }), caughtBy: "slowdown against balanced routing, with α and across nodes" },
  "takes the rank that sent the most as the hot rank": { impl: diagnose({ hotBySent: true }), caughtBy: "the hot rank (ties to the lower index)" },
} satisfies Record<string, { impl: F; caughtBy: string | string[] }>;
