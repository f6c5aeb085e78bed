// Data loader (Node, build time): the accumulation figure of the precision page.
// Fixed inputs, so the sums are computed once here by lib/precision's CPU reference
// (accumulateReference), the same function the page's GPU check compares its kernel with.
import { accumulateReference, uniformValues } from "../../lib/precision/index.js";

const n = 16384;
const seed = 2024;
const addends = uniformValues(n, seed, 0, 1, "fp16"); // uniform on [0, 1), fp16 values
const lengths = Array.from(new Set(Array.from({ length: 57 }, (_, i) => Math.round(2 ** (i / 4))))).filter((k) => k <= n);
const accumulators = ["fp16", "bf16", "fp32"] as const;
const sums = Object.fromEntries(accumulators.map((a) => [a, Array.from(accumulateReference(addends, lengths, a))]));
const exact: number[] = []; // float64 prefix sums: exact here (fp16 addends, n ≤ 2^14)
let s = 0, i = 0;
for (const k of lengths) { for (; i < k; i++) s += addends[i]; exact.push(s); }
const onesLengths = [1000, 2047, 2048, 2049, 3000, 4096];
const ones = Array.from(accumulateReference(new Float32Array(4096).fill(1), onesLengths, "fp16"));

process.stdout.write(JSON.stringify({ n, seed, lengths, accumulators, sums, exact, onesLengths, ones }));
