import type { readScaleTrace, ScaleTraceReading } from "../read-scale-trace.js";
import type { Mutant } from "../../harness/index.js";

type F = typeof readScaleTrace;

interface Options { ignoreFromStart?: boolean; countFromGrowthOnly?: boolean; offByOne?: boolean; guessNulls?: boolean; noConsistency?: boolean; noCheck?: boolean; skippedAfter?: boolean; recursive?: boolean }

const make = (o: Options = {}): F => (scales, fromStart) => {
  if (!o.noCheck) scales.forEach((s, i) => { if (typeof s !== "number" || !(s > 0) || !Number.isFinite(s)) throw new RangeError(`scales[${i}] must be a positive finite number, got ${s}`); });
  const out: ScaleTraceReading = { skipped: [], growthFactor: null, backoffFactor: null, growthInterval: null };
  const set = (k: "growthFactor" | "backoffFactor" | "growthInterval", v: number) => {
    if (!o.noConsistency && out[k] !== null && out[k] !== v) throw new RangeError(`not a GradScaler trace: ${k}`);
    if (out[k] === null || !o.noConsistency) out[k] = v;
  };
  let clean = 0, known = o.ignoreFromStart ? true : fromStart;
  const step = (i: number): void => {
    if (i + 1 >= scales.length) return;
    const r = scales[i + 1]! / scales[i]!;
    if (r < 1) { out.skipped.push(o.skippedAfter ? i + 1 : i); set("backoffFactor", r); clean = 0; known = !o.countFromGrowthOnly || known; if (o.countFromGrowthOnly) known = false; }
    else if (r > 1) { set("growthFactor", r); if (known) set("growthInterval", o.offByOne ? clean : clean + 1); clean = 0; known = true; }
    else clean++;
    if (o.recursive) step(i + 1);
  };
  if (o.recursive) step(0); else for (let i = 0; i + 1 < scales.length; i++) step(i);
  if (o.guessNulls) { out.growthFactor ??= 2; out.backoffFactor ??= 0.5; out.growthInterval ??= 2000; }
  return out;
};

export const mutants: Record<string, Mutant<F>> = {
  "counts from the start of the log even in the middle of training": { impl: make({ ignoreFromStart: true }), caughtBy: "from the middle of training: the tracker is unknown" },
  "counts the interval from growths only (a skip does not restart it)": { impl: make({ countFromGrowthOnly: true }), caughtBy: "from the middle of training: the tracker is unknown" },
  "the interval one short (the growing step not counted)": { impl: make({ offByOne: true }), caughtBy: ["the stub's example", "skips and growths from the start"] },
  "PyTorch's defaults for what the trace does not show": { impl: make({ guessNulls: true }), caughtBy: "what the trace cannot show is null" },
  "the first value of each setting kept, no check that the trace agrees": { impl: make({ noConsistency: true }), caughtBy: "a trace no GradScaler makes is refused" },
  "the skipped step taken as the one after the fall": { impl: make({ skippedAfter: true }), caughtBy: ["the stub's example", "skips and growths from the start"] },
  "no check of the scales": { impl: make({ noCheck: true }), caughtBy: "bad scales: a RangeError naming the index" },
  "one recursive call per step": { impl: make({ recursive: true }), caughtBy: "a million steps" },
};
