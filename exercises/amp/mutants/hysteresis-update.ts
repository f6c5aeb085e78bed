import type { Mutant } from "../../harness/index.js";
import type { hysteresisUpdate, HysteresisOptions, ScalerState } from "../hysteresis-update.js";

type F = typeof hysteresisUpdate;
function update(s0: ScalerState, overflow: boolean, o: HysteresisOptions, bug: string): ScalerState {
  const s = { ...s0 };
  if (overflow) {
    if (bug === "error-before-hysteresis" && s.curScale === o.minScale) throw new Error("Current loss scale already at minimum - cannot decrease scale anymore. Exiting run.");
    if (bug === "no-hysteresis" || o.delayedShift === 1 || s.curHysteresis === 1) {
      if (s.curScale === o.minScale && bug !== "no-error") throw new Error("Current loss scale already at minimum - cannot decrease scale anymore. Exiting run.");
      s.curScale = bug === "no-floor" ? s.curScale / 2 : Math.max(s.curScale / 2, o.minScale);
    } else s.curHysteresis -= 1;
    s.lastOverflowIter = s.curIter;
  } else {
    if (o.consecutiveHysteresis || bug === "always-refill") s.curHysteresis = o.delayedShift;
    const stable = bug === "from-zero" ? s.curIter : s.curIter - s.lastOverflowIter - 1;
    const grow = bug === "v0.17.0" ? (s.curIter - s.lastOverflowIter) % o.scaleWindow === 0 : stable > 0 && stable % o.scaleWindow === 0;
    if (grow) {
      if (!o.consecutiveHysteresis && bug !== "no-refill-at-growth") s.curHysteresis = o.delayedShift;
      s.curScale *= 2;
    }
  }
  s.curIter += 1;
  return s;
}

export const mutants: Record<string, Mutant<F>> = {
  "halves on every overflow (ignores hysteresis)": { impl: (s, ov, o) => update(s, ov, o, "no-hysteresis"), caughtBy: ["the stub's example", "the notes' config: hysteresis 2"] },
  "refills hysteresis on every clean iteration": { impl: (s, ov, o) => update(s, ov, o, "always-refill"), caughtBy: "hysteresis refills only at growth without consecutive_hysteresis" },
  "never refills hysteresis at growth": { impl: (s, ov, o) => update(s, ov, o, "no-refill-at-growth"), caughtBy: "random overflow sequences" },
  "counts the window from iteration 0, not from the last overflow": { impl: (s, ov, o) => update(s, ov, o, "from-zero"), caughtBy: "growth on the (window + 1)-th clean iteration, then every window" },
  "uses DeepSpeed 0.17.0's growth rule (the window-th clean iteration)": { impl: (s, ov, o) => update(s, ov, o, "v0.17.0"), caughtBy: "growth on the (window + 1)-th clean iteration, then every window" },
  "never raises at the minimum scale": { impl: (s, ov, o) => update(s, ov, o, "no-error"), caughtBy: "floor at minScale, then DeepSpeed's error" },
  "raises at the minimum scale although hysteresis is left": { impl: (s, ov, o) => update(s, ov, o, "error-before-hysteresis"), caughtBy: "floor at minScale, then DeepSpeed's error" },
  "no floor at minScale": { impl: (s, ov, o) => update(s, ov, o, "no-floor"), caughtBy: "floor at minScale, then DeepSpeed's error" },
};
