/**
 * P simulated ranks training lib/nn's model under ZeRO: one World (lib/collectives)
 * whose per-rank buffer holds the 16-bit parameters [0, Ψ) and the 16-bit gradients
 * [Ψ, 2Ψ); an fp32 master shard and AdamW moments per rank; a memory ledger.
 * It runs the operations of a {@link ZeroOp} schedule and refuses impossible ones.
 */
import { World, ringAllGatherPhase, ringReduceScatterPhase, addChunk, type ChunkRange, type CostModel, type CommEvent } from "../collectives/index.js";
import { castArray, castInPlace, caster, type TrainPrecision } from "../amp/castArray.js";
import { crossEntropy, crossEntropyBackward, cpuOps, optimizerStep, initOptimizerState, type Model, type Batch, type Saved, type Activation, type AdamWConfig, type OptimizerState, batchInput } from "../nn/index.js";
import { MemoryLedger } from "./MemoryLedger.js";
import { ownedParts, rangeLength, zeroPartition } from "./shardRanges.js";
import type { Unit } from "./wrapUnits.js";
import type { ZeroOp } from "./zeroSchedule.js";
import { elementBytes, type ZeroKnobs, type ZeroStage } from "./validateZeroOptions.js";

/** One collective the step ran, for the page's drawing. */
export interface CollectiveRecord {
  t: number;
  kind: "all-gather" | "reduce-scatter" | "all-reduce";
  what: "params" | "grads";
  start: number;
  end: number;
  /** Elements sent over all ranks. */
  elements: number;
  label: string;
}

/** What the world needs to know. */
export interface ZeroWorldSetup {
  stage: ZeroStage;
  models: Model[];
  units: Unit[];
  knobs: Required<ZeroKnobs>;
  precision: TrainPrecision;
  reduceDtype: TrainPrecision;
  optimizer: AdamWConfig;
  lossScale: number;
  cost?: CostModel;
  /** Stages 1–2: all-reduce each gradient bucket and keep the owned slice (DeepSpeed's default `use_multi_rank_bucket_allreduce`); default false: reduce-scatter, the paper's volume. */
  multiRankBucketAllreduce?: boolean;
}

/**
 * The simulated ranks of a ZeRO run. `begin(microBatches)` starts an optimizer step
 * (resident memory logged; K micro-batches, each one batch per rank), `microBatch(m)`
 * starts micro-batch m, `run(op)` executes one operation of a {@link ZeroOp} schedule
 * on every rank, `end()` returns the step's mean loss and messages. Gradients
 * accumulate over the micro-batches: a backward adds into the 16-bit gradients not
 * yet reduced (autograd's AccumulateGrad, rounded to the 16-bit dtype); a reduce adds
 * each owner's reduced sums into its gradient shard (16-bit), so stages 0–1 reduce
 * once per step and stages 2–3 once per micro-batch as their schedules say. Elements
 * a rank does not hold are NaN in its buffer, so a schedule that computes with them,
 * or reduces, gathers or steps out of order, stops with a RangeError naming the unit,
 * the rank or the element.
 *
 * @example
 * const zw = new ZeroWorld(setup, init); zw.begin([batches[0]]); zw.microBatch(0);
 * for (const o of zeroSchedule(3, setup.units, setup.knobs)) zw.run(o);
 * zw.end().loss // the mean loss of the step over all ranks' tokens
 * @throws RangeError `backward of unit blocks.0 on rank 1: parameter blocks.0.W2 is not gathered (this rank holds only its shard)`;
 *   `gather of unit head: already gathered`; `reduce of [0, 10): element 3 has no gradient yet (its unit's backward has not run)`;
 *   `optimizer step before every gradient was reduced (element 7 was not)`; `optimizer step with units still gathered: head`;
 *   `micro-batch 2 does not exist (K = 2)`
 * @see Rajbhandari et al. 2020, ZeRO, §5; DeepSpeed stage_1_and_2.py and stage3.py; lib/collectives World (the messages)
 */
export class ZeroWorld {
  readonly numRanks: number;
  readonly numElements: number;
  readonly shards: ChunkRange[];
  readonly world: World;
  readonly master: Float32Array[];
  readonly opt: OptimizerState[];
  ledger: MemoryLedger;
  collectives: CollectiveRecord[] = [];
  private saved: (Saved[] | null)[][] = [];
  private acts: Activation[] = [];
  private dy: (Activation | null)[] = [];
  /** Element i holds a gradient not yet reduced (on every rank: ranks run the same schedule). */
  private gradHeld: boolean[] = [];
  /** Element i was reduced in this micro-batch. */
  private reduced: boolean[] = [];
  /** Element i has a reduced sum in its owners' accumulator. */
  private accHas: boolean[] = [];
  /** Per rank, the reduced gradients of its range (stage 0: all), summed over micro-batches in the 16-bit dtype. */
  private acc: Float32Array[] = [];
  /** Per rank, elements whose 16-bit gradient memory is live (for the ledger). */
  private gradLive: Uint8Array[] = [];
  private bucketLive = false;
  private lossSum = 0;
  private steps: Batch[][] = [];
  private batches: Batch[] = [];
  private tokens = 0;
  private commStart = 0;

  constructor(readonly s: ZeroWorldSetup, init: Float32Array) {
    this.numRanks = s.models.length;
    this.numElements = init.length;
    this.shards = zeroPartition(this.numElements, this.numRanks);
    const compute = castArray(s.precision, init);
    const reduce = s.reduceDtype === "fp32" ? addChunk : (a: Float32Array, b: Float32Array) => castInPlace(s.reduceDtype, addChunk(a, b));
    const buffers = this.shards.map(() => { const b = new Float32Array(2 * this.numElements); b.set(compute); return b; });
    this.world = new World(buffers, s.cost ?? { alphaS: 5e-6, bandwidthBytesPerS: 25e9 }, { bytesPerElement: elementBytes(s.precision), reduce });
    if (s.stage === 3) for (const u of s.units) for (const p of u.params) if (!p.persistent) this.dropNotOwned(p, 0);
    this.master = this.shards.map((sh) => init.slice(...this.myRange(sh)));
    this.opt = this.master.map((m) => initOptimizerState([m]));
    this.ledger = new MemoryLedger(this.numRanks);
  }

  private myRange(sh: ChunkRange): [number, number] {
    return this.s.stage === 0 ? [0, this.numElements] : [sh.start, sh.end];
  }

  private get eb(): number { return elementBytes(this.s.precision); }

  /** NaN marks elements a rank does not hold: reading them is a schedule error, never silent. */
  private dropNotOwned(r: ChunkRange, base: number): void {
    this.world.buffers.forEach((b, rank) => {
      const own = ownedParts(r, this.shards)[rank];
      b.fill(NaN, base + r.start, base + own.start);
      b.fill(NaN, base + own.end, base + r.end);
    });
  }

  /** Starts an optimizer step: resident memory, its micro-batches ([m][rank]) and the loss normaliser N (tokens of all ranks and micro-batches). */
  begin(microBatches: Batch[][]): void {
    const { stage, units } = this.s;
    this.ledger = new MemoryLedger(this.numRanks);
    this.collectives = [];
    this.commStart = this.world.events.length;
    this.steps = microBatches;
    this.tokens = microBatches.flat().reduce((n, b) => n + b.targets.filter((t) => t >= 0).length, 0);
    this.lossSum = 0;
    this.gradHeld = new Array(this.numElements).fill(false);
    this.accHas = new Array(this.numElements).fill(false);
    this.acc = this.shards.map((sh) => new Float32Array(this.myRange(sh)[1] - this.myRange(sh)[0]));
    this.gradLive = this.shards.map(() => new Uint8Array(this.numElements));
    this.bucketLive = false;
    this.microBatch(0);
    const persistent = units.flatMap((u) => u.params).filter((p) => p.persistent).reduce((n, p) => n + rangeLength(p), 0);
    this.shards.forEach((sh, r) => {
      const paramsHeld = stage === 3 ? persistent + units.flatMap((u) => u.params).filter((p) => !p.persistent).reduce((n, p) => n + rangeLength(ownedParts(p, this.shards)[r]), 0) : this.numElements;
      this.ledger.alloc(r, "params", paramsHeld * this.eb, "resident 16-bit parameters");
      const n = this.master[r].length;
      if (this.s.precision !== "fp32") this.ledger.alloc(r, "master", 4 * n, "fp32 master weights");
      this.ledger.alloc(r, "adam-m", 4 * n, "AdamW first moment");
      this.ledger.alloc(r, "adam-v", 4 * n, "AdamW second moment");
    });
  }

  /** Starts micro-batch m of the step: its batches (one per rank); activations and reductions start afresh. */
  microBatch(m: number): void {
    if (!(Number.isInteger(m) && m >= 0 && m < this.steps.length)) throw new RangeError(`micro-batch ${m} does not exist (K = ${this.steps.length})`);
    this.batches = this.steps[m];
    this.saved = this.shards.map(() => this.s.units.map(() => null));
    this.dy = this.shards.map(() => null);
    this.reduced = new Array(this.numElements).fill(false);
  }

  /** Runs one operation of the schedule. */
  run(o: ZeroOp): void {
    this.ledger.tick();
    const u = "unit" in o ? this.s.units[o.unit] : undefined;
    if ("unit" in o && !u) throw new RangeError(`unit ${o.unit} does not exist (units 0..${this.s.units.length - 1})`);
    switch (o.op) {
      case "gather": return this.gather(o.unit);
      case "release": return this.release(o.unit);
      case "forward": return this.forward(o.unit);
      case "backward": return this.backward(o.unit);
      case "reduce": return this.reduce(o);
      case "step": return this.step();
      case "allgather-params": return this.allGatherParams(o);
    }
  }

  private gatheredLive = new Set<number>();

  private gather(ui: number): void {
    if (this.s.stage !== 3) throw new RangeError(`gather of unit ${this.s.units[ui].name}: parameters are only partitioned at stage 3`);
    if (this.gatheredLive.has(ui)) throw new RangeError(`gather of unit ${this.s.units[ui].name}: already gathered`);
    for (const p of this.s.units[ui].params) if (!p.persistent) this.allGatherRange(p, 0, "params", `gather ${p.name}`);
    this.gatheredLive.add(ui);
    this.shards.forEach((_, r) => this.ledger.alloc(r, "gathered", this.notOwned(this.s.units[ui], r) * this.eb, `gather ${this.s.units[ui].name}`));
  }

  private release(ui: number): void {
    const unit = this.s.units[ui];
    if (!this.gatheredLive.delete(ui)) throw new RangeError(`release of unit ${unit.name}: it is not gathered`);
    for (const p of unit.params) if (!p.persistent) this.dropNotOwned(p, 0);
    this.shards.forEach((_, r) => this.ledger.free(r, "gathered", this.notOwned(unit, r) * this.eb, `release ${unit.name}`));
  }

  private notOwned(unit: Unit, r: number): number {
    return unit.params.filter((p) => !p.persistent).reduce((n, p) => n + rangeLength(p) - rangeLength(ownedParts(p, this.shards)[r]), 0);
  }

  private allGatherRange(r: ChunkRange, base: number, what: "params" | "grads", label: string): void {
    const bounds = ownedParts(r, this.shards).map((b) => ({ start: b.start + base, end: b.end + base }));
    ringAllGatherPhase(this.world, bounds);
    this.collectives.push({ t: this.ledger.t, kind: "all-gather", what, start: r.start, end: r.end, elements: (this.numRanks - 1) * rangeLength(r), label });
  }

  /** Copies the unit's 16-bit parameters of rank r into its model, refusing elements the rank does not hold. */
  private load(unit: Unit, r: number, what: string): void {
    const buf = this.world.buffers[r];
    for (const li of unit.layers) for (const p of this.s.models[r].layers[li].params) {
      const slot = unit.params.find((s) => s.name === p.name)!;
      const v = buf.subarray(slot.start, slot.end);
      if (v.some(Number.isNaN)) throw new RangeError(`${what} of unit ${unit.name} on rank ${r}: parameter ${p.name} is not gathered (this rank holds only its shard)`);
      p.data.set(v);
    }
  }

  private forward(ui: number): void {
    const unit = this.s.units[ui], ops = cpuOps({ compute: this.s.precision, accumulate: "fp32" });
    this.s.models.forEach((m, r) => {
      if (this.saved[r][ui]) throw new RangeError(`forward of unit ${unit.name} ran twice in one step`);
      if (ui > 0 && !this.saved[r][ui - 1]) throw new RangeError(`forward of unit ${unit.name} before unit ${this.s.units[ui - 1].name}`);
      this.load(unit, r, "forward");
      let x: Activation = ui === 0 ? batchInput(this.batches[r]) : this.acts[r];
      const saved: Saved[] = [];
      for (const li of unit.layers) { const out = m.layers[li].forward(x, ops); saved.push(out.saved); x = out.y; this.ledger.alloc(r, "activations", out.saved.bytes, `forward ${m.layers[li].name}`); }
      this.saved[r][ui] = saved;
      this.acts[r] = x;
      if (ui === this.s.units.length - 1) {
        const ce = crossEntropy(x, this.batches[r].targets);
        this.lossSum += ce.lossSum;
        this.dy[r] = crossEntropyBackward(ce.probs, this.batches[r].targets, m.config.vocabSize, this.s.lossScale / this.tokens, this.s.precision);
      }
    });
  }

  private backward(ui: number): void {
    const unit = this.s.units[ui], ops = cpuOps({ compute: this.s.precision, accumulate: "fp32" });
    if (ui < this.s.units.length - 1 && this.saved[0][ui + 1]) throw new RangeError(`backward of unit ${unit.name} before unit ${this.s.units[ui + 1].name}`);
    this.s.models.forEach((m, r) => {
      const saved = this.saved[r][ui];
      if (!saved || !this.dy[r]) throw new RangeError(`backward of unit ${unit.name} on rank ${r}: its forward has not run (or its backward already ran)`);
      this.load(unit, r, "backward");
      let d: Activation | null = this.dy[r];
      for (let k = unit.layers.length - 1; k >= 0; k--) {
        const layer = m.layers[unit.layers[k]];
        for (const p of layer.params) p.grad.fill(0);
        d = layer.backward(saved[k], d!, ops);
        this.ledger.free(r, "activations", saved[k].bytes, `backward ${layer.name}`);
      }
      this.saved[r][ui] = null;
      this.dy[r] = d;
      const buf = this.world.buffers[r], round = caster(this.s.precision), live = this.gradLive[r];
      let fresh = 0;
      for (const li of unit.layers) for (const p of m.layers[li].params) {
        const slot = unit.params.find((q) => q.name === p.name)!, g = castArray(this.s.precision, p.grad); // the 16-bit gradient
        for (let i = 0; i < g.length; i++) {
          const at = this.numElements + slot.start + i;
          buf[at] = this.gradHeld[slot.start + i] ? round(buf[at] + g[i]) : g[i]; // accumulate into gradients not yet reduced
          if (!live[slot.start + i]) { live[slot.start + i] = 1; fresh++; }
        }
      }
      if (!this.bucketLive && this.s.knobs.contiguous_gradients && ui === this.s.units.length - 1 && r === 0) {
        // DeepSpeed's bucket buffer; two with overlap_comm (one fills while the other is reduced)
        const n = Math.min(this.s.knobs.reduce_bucket_size, this.numElements) * this.eb * (this.s.knobs.overlap_comm ? 2 : 1);
        this.shards.forEach((_, q) => this.ledger.alloc(q, "bucket", n, "gradient bucket buffer"));
        this.bucketLive = true;
      }
      this.ledger.alloc(r, "grads", fresh * this.eb, `backward ${unit.name}`);
    });
    for (const p of unit.params) this.gradHeld.fill(true, p.start, p.end);
  }

  private reduce(range: ChunkRange): void {
    const { start, end } = range, N = this.numElements;
    if (!(Number.isInteger(start) && Number.isInteger(end) && start >= 0 && end <= N && end > start)) throw new RangeError(`reduce range [${start}, ${end}) must lie inside [0, ${N})`);
    for (let i = start; i < end; i++) {
      if (this.reduced[i]) throw new RangeError(`reduce of [${start}, ${end}): element ${i} was already reduced in this micro-batch`);
      if (!this.gradHeld[i]) throw new RangeError(`reduce of [${start}, ${end}): element ${i} has no gradient yet (its unit's backward has not run)`);
    }
    this.reduced.fill(true, start, end);
    const owned = ownedParts(range, this.shards);
    const bounds = owned.map((b) => ({ start: b.start + N, end: b.end + N }));
    ringReduceScatterPhase(this.world, bounds);
    const elements = (this.numRanks - 1) * (end - start);
    const allReduce = this.s.stage === 0 || (this.s.stage <= 2 && this.s.multiRankBucketAllreduce === true);
    if (allReduce) ringAllGatherPhase(this.world, bounds); // a ring all-reduce; stages 1–2 then keep their slice
    this.collectives.push({ t: this.ledger.t, kind: allReduce ? "all-reduce" : "reduce-scatter", what: "grads", start, end, elements: (allReduce ? 2 : 1) * elements, label: `${allReduce ? "all-reduce" : "reduce-scatter"} gradients [${start}, ${end})` });
    // each owner adds its reduced sums into its gradient shard (stage 0: every rank owns everything)
    const round = caster(this.s.precision);
    this.shards.forEach((sh, r) => {
      const [a] = this.myRange(sh), mine = this.s.stage === 0 ? range : owned[r], buf = this.world.buffers[r];
      for (let i = mine.start; i < mine.end; i++) this.acc[r][i - a] = this.accHas[i] ? round(this.acc[r][i - a] + buf[N + i]) : buf[N + i];
    });
    this.accHas.fill(true, start, end);
    this.gradHeld.fill(false, start, end);
    if (this.s.stage >= 2) {
      this.dropNotOwned(range, N);
      this.shards.forEach((_, r) => {
        const live = this.gradLive[r], mine = owned[r];
        let freed = 0;
        for (let i = start; i < end; i++) if (live[i] && (i < mine.start || i >= mine.end)) { live[i] = 0; freed++; }
        this.ledger.free(r, "grads", freed * this.eb, `free reduced gradients [${start}, ${end})`);
      });
    }
  }

  private step(): void {
    const notReduced = this.accHas.findIndex((x, i) => !x || this.gradHeld[i]);
    if (notReduced >= 0) throw new RangeError(`optimizer step before every gradient was reduced (element ${notReduced} was not)`);
    if (this.gatheredLive.size > 0) throw new RangeError(`optimizer step with units still gathered: ${[...this.gatheredLive].map((u) => this.s.units[u].name).join(", ")}`);
    const inv = Math.fround(1 / this.s.lossScale);
    this.shards.forEach((sh, r) => {
      const [a] = this.myRange(sh), buf = this.world.buffers[r];
      const g = this.acc[r].map((x) => x * inv); // unscale, fp32
      const next = optimizerStep([this.master[r]], [g], this.opt[r], this.s.optimizer);
      this.master[r] = next.params[0];
      this.opt[r] = next.state;
      buf.set(castArray(this.s.precision, this.master[r]), a); // the new 16-bit copy of what this rank owns
      buf.fill(0, this.numElements, 2 * this.numElements);
      this.ledger.free(r, "grads", this.ledger.live(r, "grads"), "free gradients after the step");
      this.ledger.free(r, "bucket", this.ledger.live(r, "bucket"), "free bucket buffer");
      this.gradLive[r].fill(0);
    });
    this.bucketLive = false;
  }

  private allGatherParams(r: ChunkRange): void {
    if (this.s.stage === 0) throw new RangeError("allgather-params at stage 0: every rank already updated all parameters");
    if (!(r.start >= 0 && r.end <= this.numElements && r.end > r.start)) throw new RangeError(`allgather-params range [${r.start}, ${r.end}) must lie inside [0, ${this.numElements})`);
    this.allGatherRange(r, 0, "params", `all-gather updated parameters [${r.start}, ${r.end})`);
  }

  /** Ends the step: mean loss over all ranks' tokens, and the messages this step sent. */
  end(): { loss: number; commEvents: CommEvent[] } {
    return { loss: this.lossSum / this.tokens, commEvents: this.world.events.slice(this.commStart) };
  }

  /** The full fp32 master weights, concatenated from the owners' shards (rank 0's copy at stage 0). */
  masterWeights(): Float32Array {
    if (this.s.stage === 0) return this.master[0].slice();
    const out = new Float32Array(this.numElements);
    this.shards.forEach((sh, r) => out.set(this.master[r], sh.start));
    return out;
  }
}

