import type { Mutant } from "../../harness/index.js";
import type { reentrantGradients } from "../reentrant-gradients.js";

type F = typeof reentrantGradients;

export const mutants: Record<string, Mutant<F>> = {
  "parameters make a reentrant checkpoint's output require grad (treats it as non-reentrant)": {
    impl: (layers, o) => {
      if (layers.length === 0) throw new RangeError("layers must not be empty");
      let req = o.inputRequiresGrad;
      const out = layers.map((l) => (req = req || l.hasParams));
      return req ? layers.map((l, i) => l.hasParams && out[i]) : layers.map(() => false);
    },
    caughtBy: "the notes' example, reentrant",
  },
  "only a checkpoint whose own input is data loses gradients (no cascade)": {
    impl: (layers, o) => {
      if (layers.length === 0) throw new RangeError("layers must not be empty");
      return layers.map((l, i) => l.hasParams && !(l.checkpoint && o.useReentrant && i === 0 && !o.inputRequiresGrad));
    },
    caughtBy: "the notes' example, reentrant",
  },
  "any plain layer turns requires_grad on, even without parameters": {
    impl: (layers, o) => {
      if (layers.length === 0) throw new RangeError("layers must not be empty");
      let req = o.inputRequiresGrad;
      const out = layers.map((l) => (req = l.checkpoint && o.useReentrant ? req : true));
      return req ? layers.map((l, i) => l.hasParams && out[i]) : layers.map(() => false);
    },
    caughtBy: "everything checkpointed on data",
  },
  "ignores use_reentrant: every checkpoint behaves as the reentrant one": {
    impl: (layers, o) => {
      if (layers.length === 0) throw new RangeError("layers must not be empty");
      let req = o.inputRequiresGrad;
      const out = layers.map((l) => (req = l.checkpoint ? req : req || l.hasParams));
      return req ? layers.map((l, i) => l.hasParams && out[i]) : layers.map(() => false);
    },
    caughtBy: "non-reentrant trains every layer",
  },
  "returns [] for an empty model instead of throwing": {
    impl: (layers, o) => {
      let req = o.inputRequiresGrad;
      const out = layers.map((l) => { if (!(l.checkpoint && o.useReentrant)) req = req || l.hasParams; return req; });
      return req ? layers.map((l, i) => l.hasParams && out[i]) : layers.map(() => false);
    },
    caughtBy: "no layer throws RangeError",
  },
};
