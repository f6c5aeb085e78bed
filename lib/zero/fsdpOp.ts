/**
 * The operations an FSDP step is made of, as the CPU issues them, and what the
 * simulated World records of each; FSDP2's MixedPrecisionPolicy.
 */
import type { TrainPrecision } from "../amp/castArray.js";

/**
 * One operation of an FSDP step, in the order the CPU issues it: all-gather a parameter group (from its shards, or from
 * the post-forward mesh after an int `reshard_after_forward`), free it (to the shards or to the post-forward mesh),
 * compute a layer, reduce-scatter a group's gradients, or take the optimizer step.
 * @see PyTorch `_fsdp_param_group.py` at 010ae4a (`unshard`, `reshard`, `post_backward`)
 */
export type FsdpOp =
  | { op: "unshard"; group: number }
  | { op: "reshard"; group: number; to: "sharded" | "post-forward" }
  | { op: "forward" | "backward"; layer: number }
  | { op: "reduce-scatter"; group: number }
  | { op: "step" };

/**
 * `MixedPrecisionPolicy(param_dtype, reduce_dtype, output_dtype, cast_forward_inputs)`; null = unset. With
 * `param_dtype` unset everything stays in the parameters' fp32; `reduce_dtype` unset reduces in `param_dtype`.
 * `output_dtype` and `cast_forward_inputs` change nothing in the course model: its input is token ids and lib/nn
 * rounds every op output to the compute dtype already.
 * @see PyTorch `torch/distributed/fsdp/_fully_shard/_fsdp_api.py` (commit 05f814f) and `_fsdp_state.py` (`cast_forward_inputs`, `output_dtype`)
 */
export interface MixedPrecisionPolicy {
  paramDtype?: TrainPrecision | null;
  reduceDtype?: TrainPrecision | null;
  outputDtype?: TrainPrecision | null;
  castForwardInputs?: boolean;
}

/**
 * What one issued operation did: its communication time (the World's α-β steps) and messages, or its compute.
 * @see {@link FsdpOp}
 */
export interface FsdpOpRecord {
  op: FsdpOp;
  /** Seconds the World spent on its collectives (0 for compute). */
  commS: number;
  /** Forward or backward FLOPs of one rank (every rank computes alike). */
  flops: number;
  /** Index range of its messages in the World's event log. */
  events: [number, number];
  label: string;
  /** The parameter group it acts on (a forward or backward: its layer's group). */
  group?: number;
}

