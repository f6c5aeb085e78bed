import { notImplemented } from "../harness/index.js";

/** A layer of a sequential model, and whether it is called as checkpoint(layer, x). */
export interface CheckpointedLayer {
  name: string;
  /** The layer has trainable parameters. */
  hasParams: boolean;
  /** The layer is wrapped in torch.utils.checkpoint.checkpoint. */
  checkpoint: boolean;
}

/**
 * Exercise 3.4 — which layers' parameters get a gradient under activation checkpointing?
 *
 * Trace `requires_grad` through the layers, in order, starting from
 * `inputRequiresGrad` (false for a batch of data):
 * - a plain layer (or any layer when useReentrant is false): its output
 *   requires grad if its input does OR it has parameters;
 * - a reentrant checkpoint (checkpoint && useReentrant): its forward runs
 *   under no_grad inside an autograd.Function, so its output requires grad
 *   ONLY if its input does — its parameters do not count.
 * A layer's parameters get a gradient iff it has parameters and its output
 * requires grad. If the last output does not require grad, loss.backward()
 * raises in PyTorch: return all false then.
 * Read: the chapter's "The reentrant pitfall" section; the torch.utils.checkpoint docs.
 *
 * @param layers the layers in order
 * @param o inputRequiresGrad, useReentrant
 * @returns per layer, true when its parameters receive a gradient
 * @example
 * reentrantGradients([{ name: "l1", hasParams: true, checkpoint: true }, { name: "l2", hasParams: true, checkpoint: false }],
 *   { inputRequiresGrad: false, useReentrant: true }) // [false, true]
 */
export function reentrantGradients(layers: CheckpointedLayer[], o: { inputRequiresGrad: boolean; useReentrant: boolean }): boolean[] {
  return notImplemented("3.4");
}
