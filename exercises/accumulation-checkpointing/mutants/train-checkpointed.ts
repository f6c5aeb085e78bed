import { batchInput, crossEntropy, crossEntropyBackward, zeroGrad, type Activation, type Saved } from "../../../lib/nn/index.js";
import type { Mutant } from "../../harness/index.js";
import type { accumulateCheckpointed } from "../train-checkpointed.js";

type F = typeof accumulateCheckpointed;

/** What a mutant gets wrong (at most one thing each). */
interface Mistake {
  /** Scale of micro-batch i's summed loss: the notes' (1/n_i)/K instead of 1/N. */
  meanOfMeans?: boolean;
  /** Zeroes the gradients before every micro-batch (keeps only the last one's). */
  zeroEachMicroBatch?: boolean;
  /** Never zeroes: adds to whatever param.grad held. */
  noZeroGrad?: boolean;
  /** Keeps every layer's activations in forward, also in checkpointed segments (no re-materialisation). */
  keepAll?: boolean;
  /** Never frees what it stored. */
  noFree?: boolean;
  /** Holds checkpoint inputs in a local variable instead of the store. */
  inputsOutsideStore?: boolean;
  /** Does not check the segments (a wrong sum or a fraction runs anyway, or crashes with a TypeError). */
  noSegmentCheck?: boolean;
}

function make(m: Mistake): F {
  return (model, window, o) => {
    const { store, ops } = o, layers = model.layers, V = model.config.vocabSize, fmt = ops.precision.compute;
    if (window.length === 0) throw new RangeError("no micro-batch in the window");
    const segments = o.segments;
    if (!m.noSegmentCheck && (segments.some((s) => !Number.isInteger(s) || s < 1) || segments.reduce((a, b) => a + b, 0) !== layers.length)) throw new RangeError("bad segments");
    const counts = window.map((b) => b.targets.reduce((c: number, t: number) => c + (t >= 0 ? 1 : 0), 0));
    const N = counts.reduce((a, b) => a + b, 0);
    if (N === 0) throw new RangeError("no tokens in the window");
    const starts: number[] = [];
    segments.reduce((s, len) => { starts.push(s); return s + len; }, 0);
    const last = segments.length - 1;
    if (!m.noZeroGrad) zeroGrad(model.params);
    let lossSum = 0;
    window.forEach((batch, i) => {
      if (m.zeroEachMicroBatch) zeroGrad(model.params);
      const inputs: Activation[] = [], kept: Saved[][] = [];
      let x = batchInput(batch);
      for (let k = 0; k <= last; k++) {
        const seg = layers.slice(starts[k], starts[k] + segments[k]);
        const saved: Saved[] = [];
        for (const l of seg) { const r = l.forward(x, ops); saved.push(r.saved); x = r.y; }
        if (k < last && !m.keepAll) { inputs[k] = m.inputsOutsideStore ? (saved[0].x) : store.saveInput(saved[0].x, seg[0]); kept[k] = []; }
        else kept[k] = saved.map((s) => store.save(s));
      }
      const ce = crossEntropy(x, batch.targets);
      lossSum += ce.lossSum;
      const scale = m.meanOfMeans ? (counts[i] > 0 ? 1 / (counts[i] * window.length) : 0) : 1 / N;
      let dy: Activation | null = crossEntropyBackward(ce.probs, batch.targets, V, scale, fmt);
      for (let k = last; k >= 0; k--) {
        const seg = layers.slice(starts[k], starts[k] + segments[k]);
        let saved = kept[k];
        if (k < last && !m.keepAll) {
          let h = inputs[k];
          saved = [];
          for (const l of seg) { const r = l.forward(h, ops); saved.push(store.save(r.saved)); h = r.y; }
          if (!m.noFree && !m.inputsOutsideStore) store.free(inputs[k]);
        }
        for (let j = seg.length - 1; j >= 0; j--) {
          dy = seg[j].backward(saved[j], dy as Activation, ops);
          if (!m.noFree) store.free(saved[j]);
        }
      }
    });
    return { loss: lossSum / N, windowTokens: N };
  };
}

export const mutants: Record<string, Mutant<F>> = {
  "divides each micro-batch's mean loss by K (the notes' loss / accumulation_steps)": {
    impl: make({ meanOfMeans: true }),
    caughtBy: ["a window equals one big batch", "training: 8 AdamW steps equal the big-batch run"],
  },
  "zeroes the gradients before every micro-batch": { impl: make({ zeroEachMicroBatch: true }), caughtBy: "a window equals one big batch" },
  "never zeroes the gradients (adds to the previous step's)": { impl: make({ noZeroGrad: true }), caughtBy: ["one micro-batch, one segment: the plain step", "training: 8 AdamW steps equal the big-batch run"] },
  "checkpoints not re-materialised: forward keeps every segment's activations": { impl: make({ keepAll: true }), caughtBy: "peak of stored activations" },
  "stored activations never freed": { impl: make({ noFree: true }), caughtBy: ["peak of stored activations", "everything stored is freed"] },
  "checkpoint inputs kept outside the store (memory not accounted)": { impl: make({ inputsOutsideStore: true }), caughtBy: "peak of stored activations" },
  "segments not validated": { impl: make({ noSegmentCheck: true }), caughtBy: "empty micro-batches and bad windows" },
};
