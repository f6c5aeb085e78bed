import type { assignBuckets } from "../assign-buckets.js";

type F = typeof assignBuckets;

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

export const mutants: Record<string, F> = {
  "forward order instead of gradient-ready (reverse) order": (p, cap, first) => buckets(p.map((_, i) => i), p, cap, first, {}),
  "closes only when bytes > cap": (p, cap, first) => buckets(reverse(p.length), p, cap, first, { strict: true }),
  "never lets a bucket exceed its cap (closes before adding)": (p, cap, first) => buckets(reverse(p.length), p, cap, first, { neverExceed: true }),
  "ignores the first bucket's cap": (p, cap) => buckets(reverse(p.length), p, cap, cap, {}),
};
