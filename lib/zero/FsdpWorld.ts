/**
 * P simulated ranks training lib/nn's model under FSDP2 (per-parameter Shard(0)) or FSDP1
 * (one FlatParameter per unit) on lib/collectives' World: sharded fp32 parameters and AdamW
 * per rank, unshard / reshard per parameter group, gradients reduce-scattered per group
 * (all-reduced across replicas in HSDP), a memory ledger, and the time of every operation.
 */
import { World, addChunk, type CostModel, type Topology } from "../collectives/index.js";
import { castArray, castInPlace, type TrainPrecision } from "../amp/castArray.js";
import { optimizerStep, initOptimizerState, type Model, type Batch, type AdamWConfig, type OptimizerState } from "../nn/index.js";
import { MemoryLedger } from "./MemoryLedger.js";
import { postForwardGroups } from "./deviceMesh.js";
import { elementBytes } from "./validateZeroOptions.js";
import { allGatherGroup } from "./fsdpCollectives.js";
import { FsdpGradients } from "./FsdpGradients.js";
import { FsdpCompute } from "./FsdpCompute.js";
import type { FullyShardPlan, ParamGroup } from "./fullyShard.js";
import type { FsdpOp, FsdpOpRecord, MixedPrecisionPolicy } from "./fsdpOp.js";

export type { FsdpOp, FsdpOpRecord, MixedPrecisionPolicy } from "./fsdpOp.js";

/** What the world needs. */
export interface FsdpWorldSetup {
  plan: FullyShardPlan;
  models: Model[];
  mp: MixedPrecisionPolicy;
  optimizer: AdamWConfig;
  lossScale: number;
  cost?: CostModel;
  /** Nodes of `ranksPerNode` consecutive ranks, linked at `interNodeBandwidthBytesPerS` between nodes (default: one flat network). */
  topology?: Topology;
}

type GroupState = "sharded" | "unsharded" | "post-forward";

/**
 * The simulated ranks of an FSDP run. `begin(microBatches)` starts an optimizer step (K micro-batches of one batch per
 * rank), `microBatch(m)` starts micro-batch m, `run(op)` executes one {@link FsdpOp} on every rank, `end()` gives the
 * step's loss. A forward or backward of a layer whose group is not unsharded stops the run with the layer, the group and
 * its state named; so do an unshard of an unsharded group, a reshard of a sharded one, a reshard to the post-forward mesh
 * without an int `reshard_after_forward`, a reduce-scatter without gradients and a step with gradients not reduced.
 *
 * @example
 * const fw = new FsdpWorld(setup, init); fw.begin([batches]); fw.microBatch(0);
 * for (const o of fsdpSchedule(plan)) fw.run(o);
 * fw.end().loss // the mean loss over every rank's tokens
 * @throws RangeError `forward of layer blocks.0 on every rank: its group blocks.0 is sharded (unshard it first)`;
 *   `reshard of group root to the post-forward mesh: its reshard_after_forward is false, not an int`; `optimizer step with gradients of group blocks.0 not reduced`
 * @see PyTorch `torch/distributed/fsdp/_fully_shard/_fsdp_param_group.py`, `_fsdp_param.py`, `_fsdp_collectives.py` at commit 010ae4a89516fa3be548ab16dff711414ec12d0b
 */
export class FsdpWorld {
  readonly world: World;
  readonly numRanks: number;
  ledger: MemoryLedger;
  records: FsdpOpRecord[] = [];
  readonly paramDtype: TrainPrecision;
  readonly reduceDtype: TrainPrecision;
  private readonly compute: FsdpCompute;
  private readonly base: number[] = [];
  /** [group][rank]: the padded fp32 shard (the DTensor's local tensor, padded), and its AdamW state. */
  private sharded: Float32Array[][];
  private opt: OptimizerState[][];
  private state: GroupState[];
  /** [group][rank][tensor]: the padded unsharded tensor (unsharded), or the kept slice (post-forward). */
  private held: Float32Array[][][];
  private readonly gradients: FsdpGradients;

  constructor(readonly s: FsdpWorldSetup, init: Float32Array) {
    const { plan } = s;
    this.numRanks = plan.mesh.numRanks;
    if (s.models.length !== this.numRanks) throw new RangeError(`models must hold one model per rank (${this.numRanks}), got ${s.models.length}`);
    this.paramDtype = s.mp.paramDtype ?? "fp32";
    this.reduceDtype = s.mp.reduceDtype ?? this.paramDtype;
    let size = 0;
    for (const g of plan.groups) { this.base.push(size); size += 2 * plan.mesh.shard * g.paddedShardElements; }
    const rd = this.reduceDtype;
    const reduce = rd === "fp32" ? addChunk : (a: Float32Array, b: Float32Array) => castInPlace(rd, addChunk(a, b));
    this.world = new World(Array.from({ length: this.numRanks }, () => new Float32Array(size)), s.cost ?? { alphaS: 5e-6, bandwidthBytesPerS: 25e9 }, { bytesPerElement: elementBytes(this.paramDtype), reduce, topology: s.topology });
    this.compute = new FsdpCompute(plan, s.models, s.lossScale);
    this.sharded = plan.groups.map((g) => this.shardsOf(g, init));
    this.opt = this.sharded.map((byRank) => byRank.map((x) => initOptimizerState([x])));
    this.state = plan.groups.map(() => "sharded");
    this.held = plan.groups.map(() => []);
    this.gradients = new FsdpGradients(plan, this.paramDtype, this.reduceDtype);
    this.ledger = new MemoryLedger(this.numRanks);
  }

  /** Rank r's shard position j and its padded shard of group g, from the full fp32 tensors. */
  private shardsOf(g: ParamGroup, full: Float32Array): Float32Array[] {
    const G = this.s.plan.mesh.shard;
    return Array.from({ length: this.numRanks }, (_, r) => {
      const out = new Float32Array(g.paddedShardElements), j = r % G;
      for (const t of g.tensors) {
        const value = this.compute.tensorValue(t, full), { rows, rowElements } = t.layout;
        out.set(value.subarray(rows[j].start * rowElements, rows[j].end * rowElements), t.offset);
      }
      return out;
    });
  }

  private get G(): number { return this.s.plan.mesh.shard; }
  private group(gi: number): ParamGroup {
    const g = this.s.plan.groups[gi];
    if (!g) throw new RangeError(`group ${gi} does not exist (groups 0..${this.s.plan.groups.length - 1})`);
    return g;
  }
  private pb(): number { return elementBytes(this.paramDtype); }

  /** Starts an optimizer step: resident memory, its micro-batches ([m][rank]) and the loss normaliser (tokens of the whole step). */
  begin(microBatches: Batch[][]): void {
    this.ledger = new MemoryLedger(this.numRanks);
    this.records = [];
    this.compute.begin(microBatches);
    this.gradients.begin();
    this.s.plan.groups.forEach((g) => {
      for (let r = 0; r < this.numRanks; r++) {
        const local = g.tensors.reduce((n, t) => n + (t.layout.rows[r % this.G].end - t.layout.rows[r % this.G].start) * t.layout.rowElements, 0);
        this.ledger.alloc(r, "params", 4 * g.paddedShardElements, `sharded fp32 parameters of ${g.name} (padded)`);
        this.ledger.alloc(r, "adam-m", 4 * local, `AdamW exp_avg of ${g.name}`);
        this.ledger.alloc(r, "adam-v", 4 * local, `AdamW exp_avg_sq of ${g.name}`);
      }
    });
  }

  /** Starts micro-batch m; gradients kept from the last one (no sync) move to `reduce_dtype` (`to_accumulated_grad_if_needed`). */
  microBatch(m: number): void {
    this.compute.microBatch(m);
    this.gradients.toReduceDtype(this.ledger);
  }

  /** Runs one operation on every rank. */
  run(o: FsdpOp): void {
    this.ledger.tick();
    const start = this.world.events.length, clock = this.world.timeS;
    let flops = 0, label = "";
    switch (o.op) {
      case "unshard": label = this.unshard(o.group); break;
      case "reshard": label = this.reshard(o.group, o.to); break;
      case "forward": case "backward": {
        const gi = this.s.plan.groupOfLayer[o.layer];
        if (gi === undefined || gi < 0) throw new RangeError(`layer ${o.layer} does not exist`);
        if (this.state[gi] !== "unsharded") throw new RangeError(`${o.op} of layer ${this.compute.layerName(o.layer)} on every rank: its group ${this.group(gi).name} is ${this.state[gi]} (unshard it first)`);
        label = `${o.op} ${this.compute.layerName(o.layer)}`;
        if (o.op === "forward") flops = this.compute.forward(o.layer, this.ledger, this.paramDtype).flops;
        else {
          const b = this.compute.backward(o.layer, this.ledger, this.paramDtype);
          flops = b.flops;
          this.gradients.collect(gi, o.layer, b.grads, this.ledger);
        }
        break;
      }
      case "reduce-scatter": label = this.reduceScatter(o.group); break;
      case "step": label = this.step(); break;
      default: throw new RangeError(`unknown operation ${JSON.stringify(o)}`);
    }
    const group = "group" in o ? o.group : "layer" in o ? this.s.plan.groupOfLayer[o.layer] : undefined;
    this.records.push({ op: o, commS: this.world.timeS - clock, flops, events: [start, this.world.events.length], label, group });
  }

  private unshard(gi: number): string {
    const g = this.group(gi), from = this.state[gi], pb = this.pb(), mesh = this.s.plan.mesh;
    if (from === "unsharded") throw new RangeError(`unshard of group ${g.name}: it is already unsharded`);
    const w = from === "post-forward" ? (g.reshardAfterForward as number) : this.G;
    const rings = from === "post-forward" ? postForwardGroups(mesh, w) : mesh.shardGroups;
    const chunks = g.tensors.map((t) => (this.G * t.layout.paddedShardElements) / w);
    const inputs = this.sharded[gi].map((x, r) => from === "post-forward" ? this.held[gi][r] : g.tensors.map((t) => castArray(this.paramDtype, x.subarray(t.offset, t.offset + t.layout.paddedShardElements))));
    const full = allGatherGroup(this.world, rings, { base: this.base[gi], chunks }, inputs, pb);
    for (let r = 0; r < this.numRanks; r++) {
      this.ledger.alloc(r, "gathered", this.G * g.paddedShardElements * pb, `all-gather ${g.name}`);
      if (from === "post-forward") this.ledger.free(r, "resharded", this.G * g.paddedShardElements * pb / w, `free ${g.name}'s post-forward slice`);
    }
    this.held[gi] = full;
    this.compute.load(g, full);
    this.state[gi] = "unsharded";
    return `all-gather ${g.name} over ${w} ranks${from === "post-forward" ? " (post-forward mesh)" : ""}`;
  }

  private reshard(gi: number, to: "sharded" | "post-forward"): string {
    const g = this.group(gi), pb = this.pb(), full = this.G * g.paddedShardElements * pb;
    if (this.state[gi] !== "unsharded") throw new RangeError(`reshard of group ${g.name}: it is ${this.state[gi]}, not unsharded`);
    if (to === "post-forward") {
      const w = g.reshardAfterForward;
      if (typeof w !== "number") throw new RangeError(`reshard of group ${g.name} to the post-forward mesh: its reshard_after_forward is ${w}, not an int`);
      this.held[gi] = this.held[gi].map((byT, r) => byT.map((x) => { const n = x.length / w, j = r % w; return x.slice(j * n, (j + 1) * n); }));
      for (let r = 0; r < this.numRanks; r++) this.ledger.alloc(r, "resharded", full / w, `keep 1/${w} of ${g.name} (post-forward mesh)`);
    } else this.held[gi] = [];
    for (let r = 0; r < this.numRanks; r++) this.ledger.free(r, "gathered", full, `free ${g.name}'s unsharded parameters`);
    this.compute.unload(g);
    this.state[gi] = to;
    return `reshard ${g.name}${to === "post-forward" ? ` to groups of ${g.reshardAfterForward}` : ""}`;
  }

  private reduceScatter(gi: number): string {
    this.gradients.reduceScatter(gi, this.world, this.base[gi] + this.G * this.group(gi).paddedShardElements, this.ledger);
    return `reduce-scatter ${this.group(gi).name}${this.s.plan.mesh.replicate > 1 ? `, all-reduce over ${this.s.plan.mesh.replicate} replicas` : ""}`;
  }

  private step(): string {
    const inv = Math.fround(1 / this.s.lossScale);
    this.s.plan.groups.forEach((g, gi) => {
      if (this.gradients.pending(gi)) throw new RangeError(`optimizer step with gradients of group ${g.name} not reduced`);
      if (this.state[gi] !== "sharded") throw new RangeError(`optimizer step with group ${g.name} ${this.state[gi]} (reshard it after backward)`);
      this.sharded[gi] = this.sharded[gi].map((x, r) => {
        const next = optimizerStep([x], [this.gradients.sharded(gi, r).map((v) => v * inv)], this.opt[gi][r], this.s.optimizer);
        this.opt[gi][r] = next.state;
        this.ledger.free(r, "grads", 4 * x.length, `free ${g.name}'s sharded gradients`);
        return next.params[0];
      });
    });
    return "AdamW on every rank's shards";
  }

  /** The step's mean loss over every rank's tokens and micro-batches. */
  end(): { loss: number } {
    return { loss: this.compute.loss() };
  }

  /** The full fp32 parameters in `model.params` order, read from the owners' shards (replica 0). */
  masterWeights(): Float32Array {
    return this.compute.assemble((g, t) => {
      const gi = this.s.plan.groups.indexOf(g), out = new Float32Array(this.G * t.layout.paddedShardElements);
      for (let j = 0; j < this.G; j++) out.set(this.sharded[gi][j].subarray(t.offset, t.offset + t.layout.paddedShardElements), j * t.layout.paddedShardElements);
      return out;
    });
  }
}

