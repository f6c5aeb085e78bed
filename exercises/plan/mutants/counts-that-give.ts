import type { countsThatGive, FlopCount, PublishedUtilisation } from "../counts-that-give.js";
import { countsThatGive as lib, flopsPerTokenByCount, FLOP_COUNTS } from "../../../lib/plan/index.js";

type F = typeof countsThatGive;

interface Flags {
  /** N as every parameter. */
  nAll?: boolean;
  /** N without the input table even when tied. */
  dropTied?: boolean;
  /** Full recomputation adds the forward's weights only (8N + 12·LHQT). */
  hfuNoAttention?: boolean;
  /** Matches by: "round" (the printed digits only), "rel1" (1 % relative). */
  match?: "round" | "rel1";
  /** Returns the closest count only. */
  closest?: boolean;
}
function impl(r: PublishedUtilisation, o: Flags): FlopCount[] {
  lib(r); // the reference's input checks
  const h = r.hiddenSize, L = r.numLayers, HQT = r.numHeads * r.headDim * r.seqLen;
  const N = o.nAll ? r.params : r.params - r.positionRows * h - (r.tiedEmbeddings && !o.dropTied ? 0 : r.vocabSize * h);
  const f = { ...flopsPerTokenByCount(r), "palm-mfu": 6 * N + 12 * L * HQT, "palm-hfu-full": o.hfuNoAttention ? 8 * N + 12 * L * HQT : 8 * N + 16 * L * HQT };
  const printed = Number(r.reported), d = r.reported.split(".")[1]?.length ?? 0;
  const pct = (k: FlopCount) => (100 * f[k] * r.tokensPerSecond) / (r.numGpus * r.peakFlopsPerGpu);
  const slack = o.match === "round" ? 0.5 * 10 ** -d : o.match === "rel1" ? 0.01 * printed : Math.max(0.5 * 10 ** -d, 0.001 * printed);
  const ok = FLOP_COUNTS.filter((k) => Math.abs(pct(k) - printed) <= slack);
  if (o.closest && ok.length > 1) return [ok.reduce((a, b) => (Math.abs(pct(a) - printed) <= Math.abs(pct(b) - printed) ? a : b))];
  return ok;
}
const m = (o: Flags): F => (r) => impl(r, o);

export const mutants: Record<string, { impl: F; caughtBy: string | string[] }> = {
  "PaLM's N is every parameter (the untied table and the positions counted)": { impl: m({ nAll: true }), caughtBy: ["random models and runs (untied tables, learned positions, 0–3 decimals)", "at the edge of the printed precision: half a unit, or 0.1 %, whichever is wider"] },
  "a tied table left out of N as if it were only a lookup": { impl: m({ dropTied: true }), caughtBy: ["the stub's example", "random models and runs (untied tables, learned positions, 0–3 decimals)"] },
  "full recomputation repeats the weights' products but not attention's (8N + 12·L·H·Q·T)": { impl: m({ hfuNoAttention: true }), caughtBy: ["Narayanan et al.'s Table 1: every row, and the counts that agree", "random models and runs (untied tables, learned positions, 0–3 decimals)"] },
  "matches the printed digits only (no 0.1 % for a figure printed to many digits)": { impl: m({ match: "round" }), caughtBy: ["the stub's example", "random models and runs (untied tables, learned positions, 0–3 decimals)", "at the edge of the printed precision: half a unit, or 0.1 %, whichever is wider"] },
  "matches within 1 % whatever the precision printed": { impl: m({ match: "rel1" }), caughtBy: ["Narayanan et al.'s Table 1: every row, and the counts that agree", "at the edge of the printed precision: half a unit, or 0.1 %, whichever is wider"] },
  "returns only the closest count when several give the figure": { impl: m({ closest: true }), caughtBy: "Narayanan et al.'s Table 1: every row, and the counts that agree" },
  "accepts a figure with a percent sign": { impl: (r) => lib({ ...r, reported: r.reported.replace(/%$/, "") }), caughtBy: "bad input names the field" },
};
