import { notImplemented } from "../harness/index.js";
import type { Batch, Model, Ops } from "../../lib/nn/index.js";
import type { ActivationStore } from "../../lib/accumulation-checkpointing/ActivationStore.js";

/** Options of {@link accumulateCheckpointed}. */
export interface StepOptions {
  /** Segment lengths, in layer order, summing to model.layers.length. Every segment but the last is checkpointed. */
  segments: number[];
  /** Where the step keeps what backward needs; the grader measures its peak. */
  store: ActivationStore;
  /** Precision and matmul: pass them to every layer's forward and backward. */
  ops: Ops;
}

/** What {@link accumulateCheckpointed} returns; the gradient itself is left in `model.params[*].grad`. */
export interface StepResult {
  /** Mean loss over every token of the window, nats per token (what one big batch would report). */
  loss: number;
  /** N: tokens (targets other than −100) in the whole window. */
  windowTokens: number;
}

/**
 * Exercise 3.5 (build it) — one optimizer step's gradient, with gradient
 * accumulation AND activation checkpointing, on the course model.
 *
 * What: leave in `model.params[*].grad` the gradient that ONE backward over all
 * micro-batches of `window` together would give (the mean loss over every token
 * of the window), while never holding more than one micro-batch's activations,
 * and checkpointing every segment but the last as `checkpoint_sequential` does.
 * The grader trains lib/nn's model for several AdamW steps with your function
 * and compares the weights with a big-batch run.
 *
 * Building blocks (lib/nn, see its index): `batchInput(batch)` (the model's input,
 * token ids), `layer.forward(x, ops) → {y, saved}`, `layer.backward(saved, dy, ops) → dx`
 * (ADDS into param.grad; dx is null after the first layer), `crossEntropy(logits, targets)`
 * and `crossEntropyBackward(probs, targets, V, scale, ops.precision.compute)` (dlogits of
 * scale · the summed loss), `zeroGrad(params)`.
 *
 * Memory contract (this is what is graded, with the weights):
 * - everything your step keeps for backward goes through `o.store`:
 *   `store.save(saved)` for what a layer's forward saved, `store.saveInput(x, firstLayer)`
 *   for a checkpointed segment's input; `store.free(…)` as soon as it is no longer needed.
 *   The model's layers refuse `backward` on a `saved` that is not in the store.
 * - a checkpointed segment keeps only its input during forward; its activations
 *   exist only while its backward runs. When your step returns, the store is empty.
 * The grader compares `store.peakBytes` with the peak the chapter derives for
 * these segments (equal, byte for byte), and the gradient with one big batch.
 *
 * Tolerances: with one micro-batch, the gradient equals the plain
 * `backward(model, forward(model, batch))` bit for bit (checkpointing changes no
 * arithmetic); with K > 1 the gradient and the trained weights are within a
 * relative L2 error of 1e-5 of the big batch's (only the float32 summation order differs).
 * Errors (RangeError, message containing the quoted word): no micro-batch: "micro-batch";
 * a window without tokens: "tokens"; segments that are not positive integers
 * summing to the number of layers: "segments".
 * Derivation: the chapter's section "Accumulation and checkpointing together".
 * Sources: Hugging Face, "Fixing Gradient Accumulation" (2024-10-16); Chen et al. 2016, §4;
 * PyTorch `torch.utils.checkpoint.checkpoint_sequential`.
 *
 * @param model the model (its gradients are overwritten)
 * @param window K >= 1 micro-batches (all with the same number of rows)
 * @param o segments, store, ops
 * @returns the window's mean loss and its token count
 * @example
 * // course model with 6 layers, window = 3 micro-batches of 2×16 rows holding 21, 13 and 22 tokens
 * accumulateCheckpointed(model, window, { segments: [3, 3], store, ops: cpuOps() }).windowTokens // 56
 * // store.peakBytes === simulateCheckpointing(layerCosts(model.layers, 32, "fp32"), [3, 3]).result.peakBytes
 */
export function accumulateCheckpointed(model: Model, window: Batch[], o: StepOptions): StepResult {
  return notImplemented("3.5");
}
