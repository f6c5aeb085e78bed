import { notImplemented } from "../harness/index.js";

/** A layer of a sequential model, and whether it is called through torch.utils.checkpoint. */
export interface CheckpointedLayer {
  name: string;
  /** The layer has trainable parameters (requires_grad=True). */
  hasParams: boolean;
  /** The layer is called as `checkpoint(layer, x, use_reentrant=…)` instead of `layer(x)`. */
  checkpoint: boolean;
}

/**
 * Exercise 3.4 — which layers' parameters get a gradient under activation checkpointing?
 *
 * What: a sequential PyTorch model `x → layers[0] → … → layers[n−1] → loss`
 * where layer i runs as `checkpoint(layer, h, use_reentrant=o.useReentrant)`
 * when `layers[i].checkpoint`, else as `layer(h)`. The input x requires grad
 * iff `o.inputRequiresGrad` (false for a batch of data). After
 * `loss.backward()`, return for every layer whether its parameters have a
 * gradient (`.grad` is not None). A layer without parameters gets false.
 * If `loss.backward()` raises in PyTorch, nothing receives a gradient: return all false.
 * Working out how `requires_grad` propagates through a plain call, a reentrant
 * checkpoint and a non-reentrant one is the exercise: see the chapter's
 * section "The reentrant pitfall".
 *
 * Shapes: n >= 1 layers in, n booleans out (a new array).
 * Errors: no layer at all: RangeError whose message contains "layers".
 * Convention and source: PyTorch's `torch.utils.checkpoint` (docs on
 * use_reentrant; `torch/utils/checkpoint.py`, CheckpointFunction) and autograd's
 * requires_grad rules (PyTorch "Autograd mechanics").
 *
 * @param layers the layers in order
 * @param o inputRequiresGrad, useReentrant
 * @returns per layer, true when its parameters receive a gradient
 * @throws {RangeError} when `layers` is empty
 * @example
 * reentrantGradients([{ name: "l1", hasParams: true, checkpoint: true }, { name: "l2", hasParams: true, checkpoint: false }],
 *   { inputRequiresGrad: false, useReentrant: true }) // [false, true]
 */
export function reentrantGradients(layers: CheckpointedLayer[], o: { inputRequiresGrad: boolean; useReentrant: boolean }): boolean[] {
  return notImplemented("3.4");
}
