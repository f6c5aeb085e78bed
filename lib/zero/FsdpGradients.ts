/**
 * The gradients of an FSDP run: unsharded per group until reduced (accumulated across
 * micro-batches without sync), then reduce-scattered into each rank's fp32 shard.
 */
import { castArray, caster, type TrainPrecision } from "../amp/castArray.js";
import type { World } from "../collectives/index.js";
import { elementBytes } from "./validateZeroOptions.js";
import { reduceScatterGroup } from "./fsdpCollectives.js";
import type { MemoryLedger } from "./MemoryLedger.js";
import type { FullyShardPlan } from "./fullyShard.js";

/**
 * FSDP2's gradient path for every group and rank. A backward adds the layer's gradients (in `param_dtype`) into the
 * group's padded unsharded gradients, rounded to their dtype (autograd's AccumulateGrad); between micro-batches kept
 * gradients move to `reduce_dtype` when it differs (`to_accumulated_grad_if_needed`); a reduce-scatter casts them to
 * `reduce_dtype`, copies them in, reduces over the shard group (and the replicas) and adds the result into the
 * rank's fp32 sharded gradient (`sharded_param.grad += …`).
 * @example
 * const g = new FsdpGradients(plan, "bf16", "fp32"); g.collect(1, 2, perRankGrads, ledger);
 * g.reduceScatter(1, world, base, ledger); g.sharded(1, 0) // rank 0's fp32 shard gradient of group 1
 * @throws RangeError `reduce-scatter of group blocks.0: it has no gradients (its backward has not run, or they were reduced)`
 * @see PyTorch `torch/distributed/fsdp/_fully_shard/_fsdp_param.py` (`to_accumulated_grad_if_needed`, `accumulate_unsharded_grad_if_needed`)
 *   and `_fsdp_collectives.py` (`foreach_reduce`) at commit 010ae4a89516fa3be548ab16dff711414ec12d0b
 */
export class FsdpGradients {
  private grads: Float32Array[][][];
  private dtype: TrainPrecision[];
  private shard: (Float32Array | null)[][];
  private readonly G: number;

  constructor(private readonly plan: FullyShardPlan, private readonly paramDtype: TrainPrecision, private readonly reduceDtype: TrainPrecision) {
    this.G = plan.mesh.shard;
    this.grads = plan.groups.map(() => []);
    this.dtype = plan.groups.map(() => paramDtype);
    this.shard = plan.groups.map(() => []);
  }

  /** Elements of a group's padded unsharded gradients on one rank: G·S. */
  elements(gi: number): number { return this.G * this.plan.groups[gi].paddedShardElements; }

  /** A new optimizer step: no sharded gradient yet. */
  begin(): void { this.shard = this.plan.groups.map(() => Array.from({ length: this.plan.mesh.numRanks }, () => null)); }

  /** Between micro-batches: kept gradients move to `reduce_dtype` (the ledger grows when it is wider). */
  toReduceDtype(ledger: MemoryLedger): void {
    this.grads.forEach((byRank, gi) => {
      if (byRank.length === 0 || this.dtype[gi] === this.reduceDtype) return;
      byRank.forEach((_, r) => ledger.alloc(r, "grads", this.elements(gi) * (elementBytes(this.reduceDtype) - elementBytes(this.dtype[gi])), `unsharded gradients of ${this.plan.groups[gi].name} to ${this.reduceDtype}`));
      this.dtype[gi] = this.reduceDtype;
    });
  }

  /** Adds one layer's gradients ([rank][param index], in `param_dtype`) into its group's unsharded gradients. */
  collect(gi: number, layer: number, perRank: Float32Array[][], ledger: MemoryLedger): void {
    const g = this.plan.groups[gi];
    if (this.grads[gi].length === 0) {
      this.grads[gi] = perRank.map(() => g.tensors.map((t) => new Float32Array(this.G * t.layout.paddedShardElements)));
      this.dtype[gi] = this.paramDtype;
      perRank.forEach((_, r) => ledger.alloc(r, "grads", this.elements(gi) * elementBytes(this.paramDtype), `unsharded gradients of ${g.name}`));
    }
    const round = caster(this.dtype[gi]);
    perRank.forEach((byParam, r) => g.tensors.forEach((t, ti) => t.members.forEach((m) => {
      if (m.layer !== layer) return;
      const dst = this.grads[gi][r][ti], src = byParam[m.index];
      for (let i = 0; i < src.length; i++) dst[m.start + i] = round(dst[m.start + i] + src[i]);
    })));
  }

  /** Reduce-scatters group gi's gradients on the World (region at `base`) and accumulates each rank's fp32 shard. */
  reduceScatter(gi: number, world: World, base: number, ledger: MemoryLedger): void {
    const g = this.plan.groups[gi], mesh = this.plan.mesh, rb = elementBytes(this.reduceDtype);
    if (this.grads[gi].length === 0) throw new RangeError(`reduce-scatter of group ${g.name}: it has no gradients (its backward has not run, or they were reduced)`);
    const input = this.grads[gi].map((byT) => byT.map((x) => castArray(this.reduceDtype, x)));
    const inputBytes = this.elements(gi) * rb;
    for (let r = 0; r < mesh.numRanks; r++) {
      ledger.alloc(r, "bucket", inputBytes, `reduce-scatter input of ${g.name} (${this.reduceDtype})`);
      ledger.free(r, "grads", this.elements(gi) * elementBytes(this.dtype[gi]), `free ${g.name}'s unsharded gradients`);
    }
    const out = reduceScatterGroup(world, mesh.shardGroups, mesh.replicateGroups, { base, chunks: g.tensors.map((t) => t.layout.paddedShardElements) }, input, rb);
    out.forEach((x, r) => {
      const prev = this.shard[gi][r];
      if (prev) for (let i = 0; i < x.length; i++) prev[i] = Math.fround(prev[i] + x[i]); // sharded_param.grad += (fp32)
      else { this.shard[gi][r] = Float32Array.from(x); ledger.alloc(r, "grads", 4 * x.length, `sharded fp32 gradients of ${g.name}`); }
      ledger.free(r, "bucket", inputBytes, `free ${g.name}'s reduce-scatter input`);
    });
    this.grads[gi] = [];
  }

  /** True when group gi has unsharded gradients not reduced, or a rank without a sharded gradient. */
  pending(gi: number): boolean { return this.grads[gi].length > 0 || this.shard[gi].some((x) => !x); }

  /** Rank r's fp32 sharded gradient of group gi (the padded S elements). */
  sharded(gi: number, r: number): Float32Array { return this.shard[gi][r]!; }
}
