import type { Mutant } from "../../harness/index.js";
import type { assignBuckets } from "../assign-buckets.js";

type F = typeof assignBuckets;

function check(sizes: number[], cap: number, first: number, o: { plainError?: boolean; capsOnly?: boolean } = {}) {
  const E = o.plainError ? Error : RangeError;
  for (const [name, v] of [["bucketCapBytes", cap], ["firstBucketCapBytes", first]] as const) {
    if (typeof v !== "number" || !Number.isFinite(v) || v <= 0) throw new E(`${name} must be a finite number > 0, got ${v}`);
  }
  if (!o.capsOnly) sizes.forEach((b, i) => {
    if (typeof b !== "number" || !Number.isFinite(b) || b < 0) throw new E(`paramBytes[${i}] must be a finite number >= 0, got ${b}`);
  });
}
function buckets(order: number[], sizes: number[], cap: number, first: number, o: { strict?: boolean; neverExceed?: boolean }): number[][] {
  const out: number[][] = [];
  let open: number[] = [], bytes = 0, limit = first;
  for (const i of order) {
    if (o.neverExceed && open.length > 0 && bytes + sizes[i] > limit) {
      out.push(open);
      open = [];
      bytes = 0;
      limit = cap;
    }
    open.push(i);
    bytes += sizes[i];
    if (o.strict ? bytes > limit : bytes >= limit) {
      out.push(open);
      open = [];
      bytes = 0;
      limit = cap;
    }
  }
  if (open.length) out.push(open);
  return out;
}
const reverse = (n: number) => Array.from({ length: n }, (_, k) => n - 1 - k);
const right = (p: number[], cap: number, first: number) => buckets(reverse(p.length), p, cap, first, {});

export const mutants: Record<string, Mutant<F>> = {
  "forward order instead of gradient-ready (reverse) order": {
    impl: (p, cap, first) => { check(p, cap, first); return buckets(p.map((_, i) => i), p, cap, first, {}); },
    caughtBy: ["the stub's example", "worked example"],
  },
  "closes only when bytes > cap": {
    impl: (p, cap, first) => { check(p, cap, first); return buckets(reverse(p.length), p, cap, first, { strict: true }); },
    caughtBy: "a bucket closes when it reaches its cap exactly",
  },
  "never lets a bucket exceed its cap (closes before adding)": {
    impl: (p, cap, first) => { check(p, cap, first); return buckets(reverse(p.length), p, cap, first, { neverExceed: true }); },
    caughtBy: "a bucket may exceed its cap by its last parameter",
  },
  "ignores the first bucket's cap": {
    impl: (p, cap, first) => { check(p, cap, first); return buckets(reverse(p.length), p, cap, cap, {}); },
    caughtBy: "the first bucket has its own (smaller) cap",
  },
  "reverses each bucket's indices (forward order inside a bucket)": {
    impl: (p, cap, first) => { check(p, cap, first); return right(p, cap, first).map((b) => b.slice().reverse()); },
    caughtBy: "worked example",
  },
  "no input checks": {
    impl: (p, cap, first) => right(p, cap, first),
    caughtBy: "bad sizes and caps throw a RangeError naming the field",
  },
  "checks the caps only": {
    impl: (p, cap, first) => { check(p, cap, first, { capsOnly: true }); return right(p, cap, first); },
    caughtBy: "bad sizes and caps throw a RangeError naming the field",
  },
  "checks with a plain Error": {
    impl: (p, cap, first) => { check(p, cap, first, { plainError: true }); return right(p, cap, first); },
    caughtBy: "bad sizes and caps throw a RangeError naming the field",
  },
};
