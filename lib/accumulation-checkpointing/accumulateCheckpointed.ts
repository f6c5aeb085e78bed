/**
 * Gradient accumulation and activation checkpointing in one training step:
 * the reference of the chapter's "build it" exercise.
 */
import { batchInput, cpuOps, crossEntropy, crossEntropyBackward, forwardLayers, zeroGrad, type Activation, type Batch, type Model, type Ops, type Saved } from "../nn/index.js";
import { ActivationStore } from "./ActivationStore.js";
import { checkSegments } from "./segments.js";

/**
 * Options of {@link accumulateCheckpointed}.
 * @see the sources of {@link accumulateCheckpointed}
 */
export interface AccumulateCheckpointedOptions {
  /** Segment lengths summing to the number of layers; all but the last are checkpointed. Default: one segment. */
  segments?: readonly number[];
  /** Where the step keeps activations for backward (measures the peak). Default: a new store in the compute format. */
  store?: ActivationStore;
  /** Precision and matmul (default fp32 on the CPU). */
  ops?: Ops;
}

/**
 * What {@link accumulateCheckpointed} returns (the gradient is left in `model.params[*].grad`).
 * @see the sources of {@link accumulateCheckpointed}
 */
export interface AccumulateCheckpointedResult {
  /** Mean loss over every token of the window (what one big batch reports), nats per token. */
  loss: number;
  /** N, tokens (targets other than −100) in the whole window. */
  windowTokens: number;
}

/**
 * One optimizer step's gradient from a window of K micro-batches, each run
 * with activation checkpointing: zeroes `param.grad`, then for each
 * micro-batch runs forward (a checkpointed segment keeps only its input in
 * `store`; the last segment keeps what its layers save), then backward from
 * dlogits scaled by 1/N (N: tokens of the whole window), recomputing each
 * checkpointed segment from its input when backward reaches it, and freeing
 * every stored tensor once its backward has run.
 *
 * The gradient equals one backward over the concatenated window up to float32
 * summation order, and with K = 1 equals the plain `backward(model, forward(model, batch))`
 * bit for bit whatever the segments. The store's peak equals
 * `simulateCheckpointing(layerCosts(model.layers, rows, format), segments).result.peakBytes`
 * when every micro-batch has the same number of rows.
 *
 * @param model the model (gradients overwritten); pass `guardBackward(model, store)` to enforce the store
 * @param window K >= 1 micro-batches
 * @param o segments, store, ops
 * @returns the window's mean loss and token count
 * @throws {RangeError} `window must hold at least one micro-batch`; `the window has no tokens: every micro-batch is padding`;
 *   `segments must be positive integers summing to numLayers = 5, got [2, 2]`
 * @example
 * accumulateCheckpointed(model, [b1, b2, b3], { segments: [2, 3] }).windowTokens; // tokens of b1 ∪ b2 ∪ b3; grads = those of one big batch
 * @see Hugging Face, "Fixing Gradient Accumulation" (2024-10-16); Chen et al. 2016, *Training Deep Nets with Sublinear Memory Cost*, §4;
 *   PyTorch `torch.utils.checkpoint.checkpoint_sequential`
 */
export function accumulateCheckpointed(model: Model, window: readonly Batch[], o: AccumulateCheckpointedOptions = {}): AccumulateCheckpointedResult {
  if (!Array.isArray(window) || window.length === 0) throw new RangeError("window must hold at least one micro-batch");
  const ops = o.ops ?? cpuOps();
  const fmt = ops.precision.compute;
  const store = o.store ?? new ActivationStore(fmt);
  const layers = model.layers, V = model.config.vocabSize;
  const segments = checkSegments(layers.length, o.segments ?? [layers.length]);
  const N = window.reduce((s, b) => s + b.targets.reduce((c: number, t: number) => c + (t >= 0 ? 1 : 0), 0), 0);
  if (N === 0) throw new RangeError("the window has no tokens: every micro-batch is padding");
  const starts: number[] = [];
  segments.reduce((s, len) => { starts.push(s); return s + len; }, 0);
  const last = segments.length - 1;
  const segment = (k: number) => layers.slice(starts[k], starts[k] + segments[k]);

  zeroGrad(model.params);
  let lossSum = 0;
  for (const batch of window) {
    // forward: checkpointed segments keep their input, the last segment keeps what it saves
    const inputs: Activation[] = [];
    let x = batchInput(batch), lastSaved: Saved[] = [];
    for (let k = 0; k <= last; k++) {
      const r = forwardLayers(segment(k), x, ops);
      if (k < last) inputs.push(store.saveInput(x, segment(k)[0])); // r.saved is dropped: torch.no_grad()
      else lastSaved = r.saved.map((s) => store.save(s));
      x = r.y;
    }
    const ce = crossEntropy(x, batch.targets);
    lossSum += ce.lossSum;
    // backward: dlogits of lossSum / N, then segment by segment from the last
    let dy: Activation | null = crossEntropyBackward(ce.probs, batch.targets, V, 1 / N, fmt);
    for (let k = last; k >= 0; k--) {
      const seg = segment(k);
      let saved = lastSaved;
      if (k < last) {
        saved = forwardLayers(seg, inputs[k], ops).saved.map((s) => store.save(s)); // re-materialise
        store.free(inputs[k]);
      }
      for (let j = seg.length - 1; j >= 0; j--) {
        dy = seg[j].backward(saved[j], dy as Activation, ops);
        store.free(saved[j]);
      }
    }
  }
  return { loss: lossSum / N, windowTokens: N };
}
