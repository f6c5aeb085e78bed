import type { reentrantGradients } from "../reentrant-gradients.js";

export const mutants: Record<string, typeof reentrantGradients> = {
  "parameters make a reentrant checkpoint's output require grad (treats it as non-reentrant)": (layers, o) => {
    let req = o.inputRequiresGrad;
    const out = layers.map((l) => (req = req || l.hasParams));
    return req ? layers.map((l, i) => l.hasParams && out[i]) : layers.map(() => false);
  },
  "only a checkpoint whose own input is data loses gradients (no cascade)": (layers, o) => {
    return layers.map((l, i) => l.hasParams && !(l.checkpoint && o.useReentrant && i === 0 && !o.inputRequiresGrad));
  },
  "any plain layer turns requires_grad on, even without parameters": (layers, o) => {
    let req = o.inputRequiresGrad;
    const out = layers.map((l) => (req = l.checkpoint && o.useReentrant ? req : true));
    return req ? layers.map((l, i) => l.hasParams && out[i]) : layers.map(() => false);
  },
};
