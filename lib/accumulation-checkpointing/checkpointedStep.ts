/**
 * Activation checkpointing run for real on the course model: forward keeps
 * only segment inputs, backward re-runs each segment, and the gradients are
 * those of the plain run. Also simulates PyTorch's reentrant variant.
 */
import { batchInput, backwardLayers, cpuOps, crossEntropy, crossEntropyBackward, forwardLayers, zeroGrad, type Activation, type Batch, type Model, type Ops, type Saved } from "../nn/index.js";
import { checkSegments } from "./segments.js";
import { inputBytes } from "./layerCosts.js";

/**
 * Options of {@link checkpointedStep}.
 * @see the sources of {@link checkpointedStep}: torch.utils.checkpoint docs (use_reentrant; "at least one input must require grad"); Chen et al. 2016
 */
export interface CheckpointOptions {
  /** Segment lengths summing to the number of layers; all but the last are checkpointed. Default: one segment (no checkpointing). */
  segments?: number[];
  /** Simulate `use_reentrant=True` (PyTorch's historical default): default false. */
  useReentrant?: boolean;
  ops?: Ops;
}

/**
 * What {@link checkpointedStep} returns (gradients are left in `model.params[*].grad`).
 * @see the sources of {@link checkpointedStep}: torch.utils.checkpoint docs (use_reentrant; "at least one input must require grad"); Chen et al. 2016
 */
export interface CheckpointStepResult {
  loss: number;
  tokenCount: number;
  /** Largest activation bytes alive at once, measured from what was really kept. */
  peakBytes: number;
  /** FLOPs of the layers re-run in backward. */
  recomputeFlops: number;
  /** The order of work: "F3" forward of layer 3, "R3" recompute, "B3" backward. */
  schedule: string[];
  /** Names of layers whose parameters received no gradient (PyTorch: `.grad is None`). */
  layersWithoutGrad: string[];
  /** Warnings PyTorch would print. */
  warnings: string[];
}

/**
 * One forward and backward of `model` on `batch` with activation checkpointing
 * (zeroes the gradients first, backpropagates the mean loss).
 *
 * Reentrant semantics (use_reentrant=True): a checkpointed segment runs its forward
 * under no_grad, and its output requires grad only if one of its INPUTS does —
 * its parameters do not count. The first segment's input is token ids, which
 * never require grad, so with reentrant checkpointing that segment's
 * parameters get no gradient, and neither do the following checkpointed
 * segments, until a segment that runs normally makes the output require grad
 * again. The non-reentrant variant tracks parameters and has no such gap.
 *
 * @param model the model
 * @param batch the batch
 * @param o segments, useReentrant, ops
 * @returns loss, measured peak bytes and recompute FLOPs, schedule, layers without gradient, warnings
 * @throws {RangeError} `segments must be positive integers summing to numLayers = …`;
 *   {Error} `element 0 of tensors does not require grad and does not have a grad_fn` (PyTorch's RuntimeError) when nothing requires grad
 * @example
 * checkpointedStep(model, batch, { segments: [2, 2] }).peakBytes; // less than with segments [4]
 * checkpointedStep(model, batch, { segments: [2, 2], useReentrant: true }).layersWithoutGrad; // ["emb", "proj"]
 * @see torch.utils.checkpoint docs (use_reentrant; "at least one input must require grad"); Chen et al. 2016
 */
export function checkpointedStep(model: Model, batch: Batch, o: CheckpointOptions = {}): CheckpointStepResult {
  const layers = model.layers, n = layers.length, ops = o.ops ?? cpuOps();
  const segments = checkSegments(n, o.segments ?? [n]);
  const fmt = ops.precision.compute;
  const starts: number[] = [];
  segments.reduce((s, len) => { starts.push(s); return s + len; }, 0);
  const last = segments.length - 1;
  const schedule: string[] = [], warnings: string[] = [];
  let live = 0, peak = 0, recomputeFlops = 0;
  const track = (delta: number) => { live += delta; peak = Math.max(peak, live); };

  // forward: checkpointed segments keep their input only
  const segInputs: Activation[] = [];
  const requiresGrad: boolean[] = []; // does segment k's OUTPUT require grad
  let x = batchInput(batch), inReq = false; // token ids never require grad
  let lastSaved: Saved[] = [];
  segments.forEach((len, k) => {
    const seg = layers.slice(starts[k], starts[k] + len);
    segInputs.push(x);
    const r = forwardLayers(seg, x, ops);
    seg.forEach((_, j) => schedule.push(`F${starts[k] + j}`));
    if (k === last) { lastSaved = r.saved; track(r.saved.reduce((s, v) => s + v.bytes, 0)); }
    else track(inputBytes(seg[0], x.rows, fmt));
    const hasParams = seg.some((l) => l.params.length > 0);
    const checkpointed = k !== last;
    if (checkpointed && o.useReentrant && !inReq) warnings.push(`segment ${k} (${seg.map((l) => l.name).join(", ")}): None of the inputs have requires_grad=True. Gradients will be None`);
    inReq = checkpointed && o.useReentrant ? inReq : inReq || hasParams;
    requiresGrad.push(inReq);
    x = r.y;
  });
  const ce = crossEntropy(x, batch.targets);
  if (!requiresGrad[last]) throw new Error("element 0 of tensors does not require grad and does not have a grad_fn");

  // backward: last segment from its saved tensors, then recompute each checkpointed segment
  zeroGrad(model.params);
  const got = new Set<number>();
  let dy: Activation | null = crossEntropyBackward(ce.probs, batch.targets, model.config.vocabSize, ce.tokenCount > 0 ? 1 / ce.tokenCount : 0, fmt);
  for (let k = last; k >= 0 && dy !== null && requiresGrad[k]; k--) {
    const seg = layers.slice(starts[k], starts[k] + segments[k]);
    let saved = lastSaved;
    if (k !== last) {
      saved = forwardLayers(seg, segInputs[k], ops).saved; // recompute, this time keeping activations
      track(saved.reduce((s, v) => s + v.bytes, 0) - inputBytes(seg[0], segInputs[k].rows, fmt));
      seg.forEach((l, j) => { schedule.push(`R${starts[k] + j}`); recomputeFlops += l.flops(segInputs[k].rows); });
    }
    for (let j = seg.length - 1; j >= 0; j--) {
      dy = backwardLayers([seg[j]], [saved[j]], dy as Activation, ops);
      track(-saved[j].bytes);
      schedule.push(`B${starts[k] + j}`);
      got.add(starts[k] + j);
    }
    // the gradient only flows on if this segment's input requires grad
    if (k > 0 && !requiresGrad[k - 1]) dy = null;
  }
  const layersWithoutGrad = layers.filter((l, i) => l.params.length > 0 && !got.has(i)).map((l) => l.name);
  return { loss: ce.loss, tokenCount: ce.tokenCount, peakBytes: peak, recomputeFlops, schedule, layersWithoutGrad, warnings };
}
