import type { Mutant } from "../../harness/index.js";
import { round } from "../../../lib/precision/round.js";
import type { delayedScalingTrace, DelayedRecipe, DelayedState } from "../delayed-scaling-trace.js";

type F = typeof delayedScalingTrace;
type Bug =
  | "overflow-above-max" | "e4m3-tie-rule-for-both" | "window-one-longer" | "zero-rolls" | "inf-gives-zero-scale" | "no-flt-max"
  | "float64-scale" | "margin-multiplies" | "ignores-initial" | "always-max" | "first-step-current" | "no-validation";
const FLT_MAX = 3.4028234663852886e38;

/** A correct replay with one plausible mistake switched on. */
function trace(amaxes: number[], r: DelayedRecipe, format: "fp8-e4m3" | "fp8-e5m2", initial: DelayedState | undefined, bug?: Bug) {
  if (bug !== "no-validation") {
    amaxes.forEach((a, t) => { if (!(a >= 0)) throw new RangeError(`amaxes[${t}] must be an amax >= 0, got ${a}`); });
    if (!Number.isInteger(r.amaxHistoryLen) || r.amaxHistoryLen < 1) throw new RangeError(`amaxHistoryLen must be an integer >= 1, got ${r.amaxHistoryLen}`);
    if (!Number.isInteger(r.margin)) throw new RangeError(`margin must be an integer, got ${r.margin}`);
    if (initial && initial.amaxHistory.length !== r.amaxHistoryLen) throw new RangeError("initial.amaxHistory has the wrong length");
  }
  const max = format === "fp8-e4m3" ? 448 : 57344, L = r.amaxHistoryLen + (bug === "window-one-longer" ? 1 : 0);
  const f32 = bug === "float64-scale" ? (x: number) => x : Math.fround;
  let h = initial && bug !== "ignores-initial" ? [...initial.amaxHistory] : new Array(L).fill(0);
  let s = initial && bug !== "ignores-initial" ? initial.scale : 1;
  const scale: number[] = [], overflow: boolean[] = [];
  amaxes.forEach((a, t) => {
    if (bug === "first-step-current" && t === 0 && a > 0 && Number.isFinite(a)) s = f32(max / a);
    scale.push(s);
    const v = Math.fround(a * s);
    overflow.push(bug === "overflow-above-max" ? v > max : bug === "e4m3-tie-rule-for-both" ? v > max + (format === "fp8-e4m3" ? 16 : 4096) : !Number.isFinite(round(format, v)));
    h[0] = Math.max(h[0], a);
    const last = h[0];
    let windowMax = 0;
    if (last !== 0 || bug === "zero-rolls") {
      windowMax = Math.max(...h);
      h = [0, ...h.slice(2), last].slice(0, Math.max(L, 1));
      if (L === 1) h = [0];
    }
    const amax = r.amaxComputeAlgo === "most_recent" && bug !== "always-max" ? last : windowMax;
    const scaledMax = f32(bug === "margin-multiplies" ? max * 2 ** r.margin : max * f32(2 ** -r.margin));
    let next = bug === "inf-gives-zero-scale" && amax === Infinity ? 0 : Number.isFinite(amax) && amax > 0 ? f32(scaledMax / amax) : s;
    if (next === Infinity && bug !== "no-flt-max") next = FLT_MAX;
    s = next;
  });
  return { scale, overflow, final: { amaxHistory: h, scale: s } };
}
const m = (bug: Bug): F => (a, r, f, i) => trace(a, r, f, i, bug);

export const mutants: Record<string, Mutant<F>> = {
  "overflow when amax · scale > 448, forgetting that the cast rounds first": { impl: m("overflow-above-max"), caughtBy: "overflow at the format's edge: E4M3's tie rounds down, E5M2's rounds up" },
  "E4M3's tie rule (max + half a spacing rounds down) used for E5M2 too": { impl: m("e4m3-tie-rule-for-both"), caughtBy: "overflow at the format's edge: E4M3's tie rounds down, E5M2's rounds up" },
  "a history one step longer than amaxHistoryLen": { impl: m("window-one-longer"), caughtBy: "the history window: a spike is remembered for exactly amaxHistoryLen updates" },
  "a zero amax rolls the history (TE's Python fallback)": { impl: m("zero-rolls"), caughtBy: "special values: a zero amax keeps everything, Infinity overflows and freezes the scale" },
  "an infinite amax gives the scale 448 / Infinity = 0": { impl: m("inf-gives-zero-scale"), caughtBy: "special values: a zero amax keeps everything, Infinity overflows and freezes the scale" },
  "a scale beyond float32 stays Infinity": { impl: m("no-flt-max"), caughtBy: "margin and float32 arithmetic, up to a scale beyond float32" },
  "float64 scales": { impl: m("float64-scale"), caughtBy: ["the stub's example", "margin and float32 arithmetic, up to a scale beyond float32"] },
  "the margin multiplies the scale": { impl: m("margin-multiplies"), caughtBy: "margin and float32 arithmetic, up to a scale beyond float32" },
  "ignores the state it resumes from": { impl: m("ignores-initial"), caughtBy: "resuming from a checkpointed state" },
  "always the window's max, even for most_recent": { impl: m("always-max"), caughtBy: "most_recent uses this step's amax only" },
  "the first step uses its own amax (current scaling) instead of scale 1": { impl: m("first-step-current"), caughtBy: ["the stub's example", "the first steps: scale 1, then fp8Max / amax"] },
  "no validation": { impl: m("no-validation"), caughtBy: "bad input throws a RangeError naming the field" },
};
