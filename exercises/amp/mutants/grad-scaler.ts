// Plausible wrong GradScalers, written as a student would (no lib code), each
// breaking the run in a different place.
import type { Mutant } from "../../harness/index.js";
import type { createGradScaler, GradScalerOptions, ScalerOptimizer, StudentGradScaler } from "../grad-scaler.js";

type F = typeof createGradScaler;
type Bug =
  | "no-skip" | "tracker-not-reset-at-growth" | "tracker-not-reset-at-backoff" | "unscale-twice" | "test-products"
  | "divide-float64" | "interval-1000" | "scale-float64" | "no-double-unscale-error" | "null-crash" | "no-validation"
  | "update-without-checks" | "product-float64" | "tracker-kept-at-overflow";

function make(bug: Bug | null, o: GradScalerOptions = {}): StudentGradScaler {
  const growthFactor = o.growthFactor ?? 2, backoffFactor = o.backoffFactor ?? 0.5;
  const growthInterval = o.growthInterval ?? (bug === "interval-1000" ? 1000 : 2000);
  const initScale = o.initScale ?? 65536;
  if (bug !== "no-validation") {
    if (!(initScale > 0 && Number.isFinite(initScale))) throw new RangeError(`initScale must be a positive finite number, got ${initScale}`);
    if (!(growthFactor > 1 && Number.isFinite(growthFactor))) throw new RangeError(`growthFactor must be a finite number > 1, got ${growthFactor}`);
    if (!(backoffFactor > 0 && backoffFactor < 1)) throw new RangeError(`backoffFactor must be in (0, 1), got ${backoffFactor}`);
    if (!(Number.isInteger(growthInterval) && growthInterval >= 1)) throw new RangeError(`growthInterval must be an integer >= 1, got ${growthInterval}`);
  }
  const round = bug === "scale-float64" ? (x: number) => x : Math.fround;
  let scale = round(initScale), tracker = 0;
  let stage: "ready" | "unscaled" | "stepped" = "ready", found = false;
  const unscale = (opt: ScalerOptimizer) => {
    const inv = Math.fround(1 / scale);
    for (const g of opt.grads) {
      if (!g && bug !== "null-crash") continue;
      for (let i = 0; i < g!.length; i++) {
        if (bug !== "test-products" && !Number.isFinite(g![i]!)) found = true;
        g![i] = bug === "divide-float64" ? g![i]! / scale : g![i]! * inv;
        if (bug === "test-products" && !Number.isFinite(g![i]!)) found = true;
      }
    }
  };
  return {
    scale: (loss) => (bug === "product-float64" ? loss * scale : round(loss * scale)),
    unscale_(opt) {
      if (stage === "unscaled" && bug !== "no-double-unscale-error") throw new Error("unscale_() has already been called on this optimizer since the last update().");
      unscale(opt);
      stage = "unscaled";
    },
    step(opt) {
      if (stage === "stepped") throw new Error("step() has already been called since the last update().");
      if (stage === "ready" || bug === "unscale-twice") unscale(opt);
      if (!found || bug === "no-skip") opt.step();
      stage = "stepped";
    },
    update() {
      if (stage === "ready" && bug !== "update-without-checks") throw new Error("No inf checks were recorded prior to update.");
      if (found) {
        scale = round(scale * backoffFactor);
        if (bug !== "tracker-not-reset-at-backoff") tracker = 0;
      } else if (tracker + 1 === growthInterval) {
        const g = round(scale * growthFactor);
        const grows = Number.isFinite(Math.fround(g));
        if (grows) scale = g;
        tracker = bug === "tracker-not-reset-at-growth" || (bug === "tracker-kept-at-overflow" && !grows) ? tracker + 1 : 0;
      } else tracker += 1;
      stage = "ready";
      found = false;
    },
    getScale: () => scale,
    getGrowthTracker: () => tracker,
  };
}
const m = (bug: Bug): F => (o) => make(bug, o);

export const mutants: Record<string, Mutant<F>> = {
  "steps even when a gradient is inf/NaN (no skip)": { impl: m("no-skip"), caughtBy: ["step skips on inf/NaN, tested on the gradients as given", "training: skipped steps", "training: final weights"] },
  "growth tracker not reset after a growth": { impl: m("tracker-not-reset-at-growth"), caughtBy: ["update: backoff, growth and the tracker", "training: loss-scale trace"] },
  "growth tracker kept when the grown scale would be infinite in float32": { impl: m("tracker-kept-at-overflow"), caughtBy: "update at the float32 maximum: no growth, tracker reset" },
  "growth tracker not reset after a backoff": { impl: m("tracker-not-reset-at-backoff"), caughtBy: ["update: backoff, growth and the tracker", "training: loss-scale trace"] },
  "step unscales again after unscale_ (unscales twice)": { impl: m("unscale-twice"), caughtBy: "training with clipping: unscale_ then step" },
  "tests the products for inf/NaN, not the gradients as given": { impl: m("test-products"), caughtBy: "step skips on inf/NaN, tested on the gradients as given" },
  "divides by S in float64 instead of multiplying by fp32(1/S)": { impl: m("divide-float64"), caughtBy: "unscale_ multiplies by fp32(1/S) in place" },
  "default growth interval 1000 (DeepSpeed's window, not PyTorch's 2000)": { impl: m("interval-1000"), caughtBy: "defaults of torch.amp.GradScaler" },
  "keeps the scale in float64": { impl: m("scale-float64"), caughtBy: "scale(loss) multiplies by the float32 scale" },
  "no error on a second unscale_": { impl: m("no-double-unscale-error"), caughtBy: "PyTorch's errors" },
  "crashes on a parameter without a gradient (null)": { impl: m("null-crash"), caughtBy: ["unscale_ multiplies by fp32(1/S) in place", "step skips on inf/NaN, tested on the gradients as given"] },
  "no validation of the options": { impl: m("no-validation"), caughtBy: "PyTorch's errors" },
  "update() with nothing unscaled counts a clean step": { impl: m("update-without-checks"), caughtBy: "PyTorch's errors" },
  "scale(loss) returns the float64 product of the float32 scale": { impl: m("product-float64"), caughtBy: "scale(loss) multiplies by the float32 scale" },
};
