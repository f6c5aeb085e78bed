/**
 * Throughput of rounding 1M float32 values to bf16, fp16 and tf32: the gpu.js
 * `quantize` kernel on gpu.js's cpu backend (Node; lib/kernels/gpujs), beside a
 * plain TypeScript loop calling `round` and a Math.fround-free loop calling the
 * kernel's own rounding function directly. Compile time is measured apart
 * (first call); throughput is the median of 3 warm runs, in values/s.
 * Also checks, once per row, that the outputs are equal bit for bit.
 * Then the training of exercise 1.5 (trainQuantized on the exercise's small
 * model): ms per step in bf16 and fp16 with the reference rounding and with a
 * slow but correct one (`round` per element), the budget of the grader.
 */
import { createQuantizer } from "../lib/precision/quantize.js";
import { round, FORMATS, logUniformValues } from "../lib/precision/index.js";
import { trainQuantized } from "../lib/precision/trainQuantized.js";
import { kernelRoundToFormat } from "../lib/precision/kernelRoundToFormat.js";

const N = 1_000_000;
const RUNS = 3;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function sameBits(a: Float32Array, b: Float32Array): boolean {
  const x = new Uint32Array(a.buffer, a.byteOffset, a.length), y = new Uint32Array(b.buffer, b.byteOffset, b.length);
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}

function time(run: () => Float32Array): { ms: number; out: Float32Array } {
  let out: Float32Array = new Float32Array(0);
  const ms: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const t = performance.now();
    out = run();
    ms.push(performance.now() - t);
  }
  return { ms: median(ms), out };
}

export default async function bench(): Promise<void> {
  const values = logUniformValues(N, 1, -30, 20);
  const rows: Record<string, string | number>[] = [];
  for (const format of ["bf16", "fp16", "tf32"] as const) {
    const f = FORMATS[format];
    const reference = Float32Array.from(values, (x) => round(format, x));
    const loop = time(() => {
      const out = new Float32Array(N);
      for (let i = 0; i < N; i++) out[i] = round(format, values[i]!);
      return out;
    });
    rows.push({ format, implementation: "TypeScript loop: round()", "compile ms": "-", "ms / 1M": +loop.ms.toFixed(1), "values/s": Math.round(N / (loop.ms / 1000)).toExponential(2), "bit-exact": sameBits(loop.out, reference) ? "yes" : "NO" });
    const kernelLoop = time(() => {
      const out = new Float32Array(N);
      for (let i = 0; i < N; i++) out[i] = kernelRoundToFormat(values[i]!, f.mantissaBits, f.emin, f.maxFinite, Infinity);
      return out;
    });
    rows.push({ format, implementation: "TypeScript loop: kernelRoundToFormat()", "compile ms": "-", "ms / 1M": +kernelLoop.ms.toFixed(1), "values/s": Math.round(N / (kernelLoop.ms / 1000)).toExponential(2), "bit-exact": sameBits(kernelLoop.out, reference) ? "yes" : "NO" });
    for (const mode of ["cpu"]) { // gpu.js's webasm backend cannot read four-float texels (lib/kernels/gpujs)
      const q = createQuantizer(format, { mode });
      try {
        const t0 = performance.now();
        q.run(values); // compiles
        const compileMs = performance.now() - t0;
        const k = time(() => q.run(values));
        rows.push({ format, implementation: `gpu.js quantize (${q.backend})`, "compile ms": +compileMs.toFixed(0), "ms / 1M": +k.ms.toFixed(1), "values/s": Math.round(N / (k.ms / 1000)).toExponential(2), "bit-exact": sameBits(k.out, reference) ? "yes" : "NO" });
      } finally {
        q.destroy();
      }
    }
  }
  console.log(`Rounding ${N.toLocaleString("en-US")} float32 values (|x| from 2^-30 to 2^20, 1 in 16 an exact tie); median of ${RUNS} warm runs.`);
  console.table(rows);

  // Exercise 1.5's runs: the grader trains 1 + 5 + 20 (bf16) + 20 (fp16) steps with the student's rounding.
  const RUN = { model: { width: 16, hiddenDim: 32, numBlocks: 1 }, batchSize: 4, seqLen: 8, lr: 1e-2 };
  const slow = (v: Float32Array, f: "fp16" | "bf16") => Float32Array.from(v, (x) => round(f, x));
  const train = [];
  for (const format of ["bf16", "fp16"] as const) {
    for (const [name, quantize] of [["castArray (reference)", undefined], ["round per element (slow, correct)", slow]] as const) {
      trainQuantized({ format, steps: 2, ...RUN, quantize }); // warm-up
      const t0 = performance.now();
      trainQuantized({ format, steps: 20, ...RUN, quantize, lossScale: format === "fp16" ? 1024 : 1 });
      const ms = (performance.now() - t0) / 20;
      train.push({ format, rounding: name, "ms / step": +ms.toFixed(1), "grader's 46 steps, s": +((46 * ms) / 1000).toFixed(2) });
    }
  }
  console.log("Exercise 1.5: trainQuantized on the exercise's model (width 16, hidden 32, 1 block, 4 × 8 tokens per step)");
  console.table(train);
}
