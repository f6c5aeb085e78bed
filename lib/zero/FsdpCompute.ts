/**
 * The compute side of the FSDP simulation: every rank's replica of lib/nn's model,
 * loaded from unsharded groups, run layer by layer on its own micro-batch.
 */
import { castArray, type TrainPrecision } from "../amp/castArray.js";
import { batchInput, cpuOps, crossEntropy, crossEntropyBackward, type Activation, type Batch, type Model, type Saved } from "../nn/index.js";
import type { MemoryLedger } from "./MemoryLedger.js";
import type { FullyShardPlan, GroupTensor, ParamGroup } from "./fullyShard.js";

/**
 * Runs forward and backward of one layer on every rank, keeps the activations and the loss of the step, and maps the
 * groups' tensors to the model's parameters. Parameters of a group that is not unsharded hold NaN.
 * @example
 * const c = new FsdpCompute(plan, models, 1); c.begin([batches]); c.microBatch(0);
 * c.load(plan.groups[0], gathered); c.forward(0, ledger, "bf16").flops // FLOPs of layer 0 on one rank
 * @throws RangeError `forward of layer blocks.0 before layer proj in micro-batch 0`; `backward of layer proj before layer blocks.0`
 * @see lib/nn model.ts (forwardLayers, backwardLayers); PyTorch FSDP2 `_fsdp_param.py` at 010ae4a (the unsharded parameter is the all-gather output's first numel elements)
 */
export class FsdpCompute {
  /** Start of each parameter in the flat `model.params` order: [layer][index]. */
  private readonly flatStart: number[][];
  private steps: Batch[][] = [];
  private batches: Batch[] = [];
  private tokens = 0;
  private lossSum = 0;
  private m = 0;
  private saved: (Saved | null)[][] = [];
  private acts: (Activation | null)[] = [];
  private nextForward = 0;
  private nextBackward = -1;

  constructor(private readonly plan: FullyShardPlan, private readonly models: Model[], private readonly lossScale: number) {
    let o = 0;
    this.flatStart = models[0].layers.map((l) => l.params.map((p) => { const s = o; o += p.data.length; return s; }));
    for (const g of plan.groups) this.unload(g);
  }

  layerName(layer: number): string { return this.models[0].layers[layer]?.name ?? `#${layer}`; }

  /** The unpadded value of a sharded tensor, read from a flat vector in `model.params` order. */
  tensorValue(t: GroupTensor, flat: Float32Array): Float32Array {
    const out = new Float32Array(t.members.reduce((n, m) => n + m.numel, 0));
    for (const m of t.members) out.set(flat.subarray(this.flatStart[m.layer][m.index], this.flatStart[m.layer][m.index] + m.numel), m.start);
    return out;
  }

  /** The flat vector in `model.params` order from each tensor's padded unsharded value. */
  assemble(valueOf: (g: ParamGroup, t: GroupTensor) => Float32Array): Float32Array {
    const out = new Float32Array(this.plan.numParams);
    for (const g of this.plan.groups) for (const t of g.tensors) {
      const v = valueOf(g, t);
      for (const m of t.members) out.set(v.subarray(m.start, m.start + m.numel), this.flatStart[m.layer][m.index]);
    }
    return out;
  }

  /** Copy-out into the models: each rank's parameters become views of its padded unsharded tensors (first numel elements). */
  load(g: ParamGroup, full: Float32Array[][]): void {
    this.models.forEach((model, r) => g.tensors.forEach((t, ti) => t.members.forEach((m) => model.layers[m.layer].params[m.index].data.set(full[r][ti].subarray(m.start, m.start + m.numel)))));
  }

  /** Resharded: the unsharded parameters are gone (NaN, so that a stray read cannot pass unnoticed). */
  unload(g: ParamGroup): void {
    for (const model of this.models) for (const t of g.tensors) for (const m of t.members) model.layers[m.layer].params[m.index].data.fill(NaN);
  }

  begin(microBatches: Batch[][]): void {
    this.steps = microBatches;
    this.tokens = microBatches.flat().reduce((n, b) => n + b.targets.filter((t) => t >= 0).length, 0);
    this.lossSum = 0;
  }

  microBatch(m: number): void {
    if (!(Number.isInteger(m) && m >= 0 && m < this.steps.length)) throw new RangeError(`micro-batch ${m} does not exist (K = ${this.steps.length})`);
    this.m = m;
    this.batches = this.steps[m];
    this.saved = this.models.map((model) => model.layers.map(() => null));
    this.acts = this.models.map(() => null);
    this.nextForward = 0;
    this.nextBackward = -1;
  }

  forward(layer: number, ledger: MemoryLedger, dtype: TrainPrecision): { flops: number } {
    const L = this.models[0].layers.length;
    if (layer !== this.nextForward) throw new RangeError(`forward of layer ${this.layerName(layer)} ${layer < this.nextForward ? "ran twice" : `before layer ${this.layerName(this.nextForward)}`} in micro-batch ${this.m}`);
    const ops = cpuOps({ compute: dtype, accumulate: "fp32" });
    this.models.forEach((model, r) => {
      const f = model.layers[layer].forward(layer === 0 ? batchInput(this.batches[r]) : this.acts[r]!, ops);
      this.saved[r][layer] = f.saved;
      this.acts[r] = f.y;
      ledger.alloc(r, "activations", f.saved.bytes, `forward ${this.layerName(layer)}`);
      if (layer === L - 1) {
        const ce = crossEntropy(f.y, this.batches[r].targets);
        this.lossSum += ce.lossSum;
        this.acts[r] = crossEntropyBackward(ce.probs, this.batches[r].targets, model.config.vocabSize, this.lossScale / this.tokens, dtype);
      }
    });
    this.nextForward++;
    if (layer === L - 1) this.nextBackward = L - 1;
    return { flops: this.models[0].layers[layer].flops(this.batches[0].rows) };
  }

  /** Backward of one layer on every rank; returns each rank's gradients of the layer's parameters, in `dtype`. */
  backward(layer: number, ledger: MemoryLedger, dtype: TrainPrecision): { flops: number; grads: Float32Array[][] } {
    if (layer !== this.nextBackward) throw new RangeError(this.nextBackward < 0 ? `backward of layer ${this.layerName(layer)} before the forward reached the loss in micro-batch ${this.m}` : `backward of layer ${this.layerName(layer)} before layer ${this.layerName(this.nextBackward)}`);
    const ops = cpuOps({ compute: dtype, accumulate: "fp32" });
    const grads = this.models.map((model, r) => {
      const l = model.layers[layer], saved = this.saved[r][layer]!;
      for (const p of l.params) p.grad.fill(0);
      this.acts[r] = l.backward(saved, this.acts[r]!, ops);
      ledger.free(r, "activations", saved.bytes, `backward ${l.name}`);
      this.saved[r][layer] = null;
      return l.params.map((p) => castArray(dtype, p.grad));
    });
    this.nextBackward--;
    return { flops: 2 * this.models[0].layers[layer].flops(this.batches[0].rows), grads };
  }

  /** The step's mean loss over every rank's tokens and micro-batches. */
  loss(): number { return this.lossSum / this.tokens; }
}
