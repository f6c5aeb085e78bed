import type { hysteresisUpdate, HysteresisOptions, ScalerState } from "../hysteresis-update.js";

function update(s0: ScalerState, overflow: boolean, o: HysteresisOptions, bug: string): ScalerState {
  const s = { ...s0 };
  if (overflow) {
    if (bug === "no-hysteresis" || o.delayedShift === 1 || s.curHysteresis === 1) {
      if (s.curScale === o.minScale && bug !== "no-error") throw new Error("Current loss scale already at minimum - cannot decrease scale anymore. Exiting run.");
      s.curScale = Math.max(s.curScale / 2, o.minScale);
    } else s.curHysteresis -= 1;
    s.lastOverflowIter = s.curIter;
  } else {
    if (o.consecutiveHysteresis || bug === "always-refill") s.curHysteresis = o.delayedShift;
    const stable = bug === "from-zero" ? s.curIter : s.curIter - s.lastOverflowIter - 1;
    if (stable > 0 && stable % o.scaleWindow === 0) {
      if (!o.consecutiveHysteresis) s.curHysteresis = o.delayedShift;
      s.curScale *= 2;
    }
  }
  s.curIter += 1;
  return s;
}

export const mutants: Record<string, typeof hysteresisUpdate> = {
  "halves on every overflow (ignores hysteresis)": (s, ov, o) => update(s, ov, o, "no-hysteresis"),
  "refills hysteresis on every clean iteration": (s, ov, o) => update(s, ov, o, "always-refill"),
  "counts the window from iteration 0, not from the last overflow": (s, ov, o) => update(s, ov, o, "from-zero"),
  "never raises at the minimum scale": (s, ov, o) => update(s, ov, o, "no-error"),
};
