/**
 * Lets a benchmark say what it is doing; `npm run bench` (bench/run.ts) shows
 * it in its status line beside the elapsed time. Does nothing when the
 * benchmark runs outside bench/run.ts.
 * @param what e.g. "matmul 256×256, webasm"
 * @example progress("training 200 steps in bf16")
 */
export function progress(what: string): void {
  process.send?.({ progress: what });
}
