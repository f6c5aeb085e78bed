/**
 * Seeded batches of (context → next character) examples from the training text.
 */
import { IGNORE_INDEX } from "./crossEntropy.js";
import { randomInt, type Rng } from "../random.js";

/** N examples: the C previous token ids of each row, and the id to predict (or IGNORE_INDEX for padding). */
export interface Batch {
  /** (N, C) token ids, row-major. */
  contexts: Int32Array;
  /** (N) next-token ids, IGNORE_INDEX on padded positions. */
  targets: Int32Array;
  /** N = batchSize · seqLen. */
  rows: number;
  /** C. */
  contextLength: number;
}

/** Options of {@link sampleBatch}. */
export interface SampleOptions {
  /** B, sequences per batch (integer >= 1). */
  batchSize: number;
  /** L, positions per sequence (the padded length; integer >= 1). */
  seqLen: number;
  /** C, tokens of context per prediction (integer >= 1). */
  contextLength: number;
  /** Real length of each sequence (1..L); positions beyond are padding. Default: all L. */
  lengths?: number[];
}

/**
 * B random windows of the text, each giving L predictions: position t of
 * sequence b predicts token s_b + C + t from the C tokens before it. With
 * `lengths`, positions t >= lengths[b] get target IGNORE_INDEX (padding, as
 * a collator pads a variable-length batch).
 *
 * @param tokens the encoded text, at least C + L + 1 ids
 * @param o batch size, sequence length, context length, optional real lengths
 * @param rng seeded generator (consumes B numbers)
 * @returns a Batch of N = B·L rows
 * @throws {RangeError} `batchSize must be an integer >= 1, got 0`; `tokens must hold at least C + L + 1 = … ids, got …`;
 *   `lengths must be B = … integers in [0, L], got …`
 * @example
 * sampleBatch(vocab.encode(SONNETS), { batchSize: 4, seqLen: 16, contextLength: 8 }, mulberry32(1)).rows; // 64
 * @see nanoGPT `train.py` get_batch (random windows of the text)
 */
export function sampleBatch(tokens: Int32Array, o: SampleOptions, rng: Rng): Batch {
  const { batchSize: B, seqLen: L, contextLength: C } = o;
  for (const [k, v] of [["batchSize", B], ["seqLen", L], ["contextLength", C]] as const) {
    if (!Number.isInteger(v) || v < 1) throw new RangeError(`${k} must be an integer >= 1, got ${v}`);
  }
  if (tokens.length < C + L + 1) throw new RangeError(`tokens must hold at least C + L + 1 = ${C + L + 1} ids, got ${tokens.length}`);
  const lengths = o.lengths ?? new Array<number>(B).fill(L);
  if (lengths.length !== B || lengths.some((n) => !Number.isInteger(n) || n < 0 || n > L)) {
    throw new RangeError(`lengths must be B = ${B} integers in [0, ${L}], got [${lengths.join(", ")}]`);
  }
  const N = B * L;
  const contexts = new Int32Array(N * C);
  const targets = new Int32Array(N);
  for (let b = 0; b < B; b++) {
    const start = randomInt(rng, tokens.length - C - L);
    for (let t = 0; t < L; t++) {
      const row = b * L + t; // (B, L) flattened
      contexts.set(tokens.subarray(start + t, start + t + C), row * C); // (N, C)
      targets[row] = t < lengths[b] ? tokens[start + t + C] : IGNORE_INDEX;
    }
  }
  return { contexts, targets, rows: N, contextLength: C };
}

/**
 * Concatenates batches row-wise (the "one big batch" that gradient accumulation must reproduce).
 *
 * @param batches batches with the same contextLength
 * @returns one Batch with Σ rows
 * @throws {RangeError} `batches must share contextLength`; `batches must not be empty`
 * @example
 * concatBatches([a, b]).rows === a.rows + b.rows; // true
 * @see Hugging Face blog, "Fixing Gradient Accumulation" (Oct 2024): accumulation must match the loss of the one big batch
 */
export function concatBatches(batches: readonly Batch[]): Batch {
  if (batches.length === 0) throw new RangeError("batches must not be empty");
  const C = batches[0].contextLength;
  if (batches.some((b) => b.contextLength !== C)) throw new RangeError("batches must share contextLength");
  const rows = batches.reduce((s, b) => s + b.rows, 0);
  const contexts = new Int32Array(rows * C), targets = new Int32Array(rows);
  let r = 0;
  for (const b of batches) { contexts.set(b.contexts, r * C); targets.set(b.targets, r); r += b.rows; }
  return { contexts, targets, rows, contextLength: C };
}
