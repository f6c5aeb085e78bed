/**
 * Which parameters get gradients when layers are wrapped in
 * `torch.utils.checkpoint.checkpoint`, reentrant or not.
 */

/**
 * A layer of a sequential model, and whether it is wrapped in checkpoint().
 * @see the sources of {@link reentrantGradients}: torch/utils/checkpoint.py (CheckpointFunction, check_backward_validity); torch.utils.checkpoint docs on use_reentrant
 */
export interface ReentrantLayer {
  name: string;
  /** The layer has trainable parameters. */
  hasParams: boolean;
  /** The layer is called as checkpoint(layer, x). */
  checkpoint: boolean;
}

/**
 * What {@link reentrantGradients} returns.
 * @see the sources of {@link reentrantGradients}: torch/utils/checkpoint.py (CheckpointFunction, check_backward_validity); torch.utils.checkpoint docs on use_reentrant
 */
export interface ReentrantResult {
  /** Per layer: true when its parameters receive a gradient (false: `.grad` stays None). */
  getsGrad: boolean[];
  /** Per layer: whether its output requires grad. */
  outputRequiresGrad: boolean[];
  /** The UserWarnings PyTorch prints. */
  warnings: string[];
  /** The RuntimeError of loss.backward(), or null. */
  error: string | null;
}

/**
 * Traces `requires_grad` through a sequential model and reports which layers' parameters get a gradient.
 *
 * A plain layer's output requires grad if its input does or it has parameters.
 * checkpoint(use_reentrant=True) is an autograd.Function run under no_grad: its output
 * requires grad only if one of its tensor INPUTS does (the layer's parameters are not inputs),
 * and PyTorch warns "None of the inputs have requires_grad=True. Gradients will be None".
 * checkpoint(use_reentrant=False) records the graph like a plain layer.
 * A layer's parameters get a gradient iff it has parameters and its output requires grad
 * (the chain to the loss is then unbroken, since requires_grad only turns on along the stack).
 * If the model output does not require grad, loss.backward() raises.
 *
 * @param layers the layers in order
 * @param o inputRequiresGrad (the model input, e.g. false for data), useReentrant
 * @returns per-layer gradient presence, warnings, and the error if any
 * @throws {RangeError} `layers must not be empty`
 * @example
 * // the notes' example: checkpoint(layer1, x), checkpoint(layer2, x), layer3(x), with data x
 * reentrantGradients([{ name: "layer1", hasParams: true, checkpoint: true }, { name: "layer2", hasParams: true, checkpoint: true },
 *   { name: "layer3", hasParams: true, checkpoint: false }], { inputRequiresGrad: false, useReentrant: true }).getsGrad;
 * // [false, false, true]: layer1 AND layer2 are silently never trained
 * @see torch/utils/checkpoint.py (CheckpointFunction, check_backward_validity); torch.utils.checkpoint docs on use_reentrant
 */
export function reentrantGradients(layers: readonly ReentrantLayer[], o: { inputRequiresGrad: boolean; useReentrant: boolean }): ReentrantResult {
  if (layers.length === 0) throw new RangeError("layers must not be empty");
  let req = o.inputRequiresGrad;
  const outputRequiresGrad: boolean[] = [], warnings: string[] = [];
  for (const l of layers) {
    if (l.checkpoint && o.useReentrant) {
      if (!req) warnings.push(`${l.name}: None of the inputs have requires_grad=True. Gradients will be None`);
    } else req = req || l.hasParams;
    outputRequiresGrad.push(req);
  }
  const error = req ? null : "element 0 of tensors does not require grad and does not have a grad_fn";
  const getsGrad = layers.map((l, i) => error === null && l.hasParams && outputRequiresGrad[i]);
  return { getsGrad, outputRequiresGrad, warnings, error };
}
