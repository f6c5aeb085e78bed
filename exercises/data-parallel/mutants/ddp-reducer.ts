import type { Mutant } from "../../harness/index.js";
import type { BucketCaps, createDdpReducer, DdpReducer, GradCluster, GradMessage } from "../ddp-reducer.js";

type F = typeof createDdpReducer;

interface Mistakes {
  /** walk the parameters in forward order when forming buckets */
  forwardOrder?: boolean;
  /** one bucket for every parameter */
  oneBucket?: boolean;
  /** skip the all-gather */
  noAllGather?: boolean;
  /** do not divide by P */
  noMean?: boolean;
  /** all-reduce everything in finish() */
  noOverlap?: boolean;
  /** launch a bucket when its last-walked parameter is ready, without checking the others */
  launchOnLast?: boolean;
  /** reduce through rank 0 (push then pull) instead of the ring */
  parameterServer?: boolean;
}

function split(n: number, P: number): [number, number][] {
  const out: [number, number][] = [];
  let s = 0;
  for (let c = 0; c < P; c++) {
    const len = Math.floor(n / P) + (c < n % P ? 1 : 0);
    out.push([s, s + len]);
    s += len;
  }
  return out;
}

function buckets(sizes: number[], caps: BucketCaps, o: Mistakes): number[][] {
  const order = sizes.map((_, i) => i);
  if (!o.forwardOrder) order.reverse();
  if (o.oneBucket) return [order];
  const out: number[][] = [];
  let open: number[] = [], bytes = 0, cap = caps.firstBucketCapBytes;
  for (const i of order) {
    open.push(i);
    bytes += 4 * sizes[i];
    if (bytes >= cap) { out.push(open); open = []; bytes = 0; cap = caps.bucketCapBytes; }
  }
  if (open.length) out.push(open);
  return out;
}

/** A reducer with the mistakes `o` switched in (all off: a correct one). */
function reducer(cluster: GradCluster, sizes: number[], caps: BucketCaps, o: Mistakes): DdpReducer {
  const P = cluster.numRanks;
  const offsets = sizes.map((_, i) => sizes.slice(0, i).reduce((a, b) => a + b, 0));
  const bs = buckets(sizes, caps, o).map((params) => ({ params, lo: Math.min(...params.map((i) => offsets[i])), hi: Math.max(...params.map((i) => offsets[i] + sizes[i])) }));
  const ready = sizes.map(() => false);
  let next = 0;
  const mod = (a: number) => ((a % P) + P) % P;
  const allReduce = (lo: number, hi: number) => {
    if (P > 1 && o.parameterServer) {
      const push: GradMessage[] = [], pull: GradMessage[] = [];
      for (let r = 1; r < P; r++) push.push({ sender: r, receiver: 0, offset: lo, length: hi - lo, op: "reduce" });
      for (let r = 1; r < P; r++) pull.push({ sender: 0, receiver: r, offset: lo, length: hi - lo, op: "copy" });
      cluster.step(push);
      cluster.step(pull);
    } else {
      const chunks = split(hi - lo, P);
      for (const [shift, op] of (o.noAllGather ? [[1, "reduce"]] : [[1, "reduce"], [0, "copy"]]) as [number, "reduce" | "copy"][]) {
        for (let s = 0; s < P - 1; s++) {
          cluster.step(Array.from({ length: P }, (_, r) => {
            const [a, b] = chunks[mod(r - s - shift)];
            return { sender: r, receiver: mod(r + 1), offset: lo + a, length: b - a, op };
          }));
        }
      }
    }
    if (!o.noMean) for (const g of cluster.grads) for (let i = lo; i < hi; i++) g[i] /= P;
  };
  const launchReady = () => {
    while (next < bs.length && (o.launchOnLast ? ready[bs[next].params.at(-1)!] : bs[next].params.every((i) => ready[i]))) {
      allReduce(bs[next].lo, bs[next].hi);
      next++;
    }
  };
  return {
    gradReady(i) {
      ready[i] = true;
      if (!o.noOverlap) launchReady();
    },
    finish() {
      if (o.noOverlap) launchReady();
    },
  };
}

const m = (o: Mistakes): F => (cluster, sizes, caps) => reducer(cluster, sizes, caps, o);

export const mutants: Record<string, Mutant<F>> = {
  "ring without the all-gather: each rank keeps only its own summed chunk": {
    impl: m({ noAllGather: true }),
    caughtBy: ["the stub's example", "training equals one process (P = 1, 2, 3, 4, 8; 20 steps)", "the ring's pattern"],
  },
  "sums the gradients but never divides by P": {
    impl: m({ noMean: true }),
    caughtBy: ["the stub's example", "one training step: the mean on every rank"],
  },
  "buckets formed in forward order instead of gradient-ready order": {
    impl: m({ forwardOrder: true }),
    caughtBy: "the buckets of exercise 5.4",
  },
  "one bucket for the whole model": {
    impl: m({ oneBucket: true }),
    caughtBy: ["the buckets of exercise 5.4", "overlap: each bucket starts as soon as it may"],
  },
  "all-reduces every bucket in finish(), after backward (no overlap)": {
    impl: m({ noOverlap: true }),
    caughtBy: "overlap: each bucket starts as soon as it may",
  },
  "launches a bucket when its last parameter (in walk order) is ready, without waiting for the others": {
    impl: m({ launchOnLast: true }),
    caughtBy: "bucket order; a bucket waits for all its gradients",
  },
  "a parameter server through rank 0 instead of the ring": {
    impl: m({ parameterServer: true }),
    caughtBy: "the ring's pattern",
  },
};
