/**
 * A seeded synthetic "text": symbols drawn from a random Markov chain of
 * order 1 or 2, so a tiny language model has something learnable whose best
 * possible loss (the chain's entropy rate) is known.
 */

import { mulberry32, type Rng } from "../random.js";

/** A generated corpus. */
export interface MarkovText {
  vocabSize: number;
  /** The symbol sequence, each in [0, vocabSize). */
  tokens: Uint8Array;
  /** Next-symbol probabilities per context (c1·V + c2): (V², V) row-major. */
  transition: Float64Array;
  /** Entropy rate in nats: the lowest mean cross-entropy a model can reach. */
  entropyNats: number;
}

/**
 * Generates `length` symbols of a Markov chain over `vocabSize` symbols;
 * each context's next-symbol distribution puts most mass on a few symbols
 * (weights u^sharpness, normalised). With order 1 the distribution depends
 * on the previous symbol only (the row of context (c1, c2) is that of c2).
 * @param options vocabSize (2..256, default 32), length (default 20000), sharpness (default 6), order (1 or 2, default 1), seed (default 1)
 * @returns {@link MarkovText}
 * @throws {RangeError} `vocabSize must be an integer in [2, 256], got 1`
 */
export function markovText(options: { vocabSize?: number; length?: number; sharpness?: number; order?: 1 | 2; seed?: number } = {}): MarkovText {
  const V = options.vocabSize ?? 32;
  const length = options.length ?? 20000;
  const sharp = options.sharpness ?? 6;
  if (!(Number.isInteger(V) && V >= 2 && V <= 256)) throw new RangeError(`vocabSize must be an integer in [2, 256], got ${V}`);
  if (!(Number.isInteger(length) && length >= 3)) throw new RangeError(`length must be an integer >= 3, got ${length}`);
  const order = options.order ?? 1;
  if (order !== 1 && order !== 2) throw new RangeError(`order must be 1 or 2, got ${order}`);
  const rng = mulberry32(options.seed ?? 1);
  const transition = new Float64Array(V * V * V); // (V², V)
  const rows = Array.from({ length: order === 1 ? V : V * V }, () => Array.from({ length: V }, () => rng() ** sharp));
  let entropy = 0;
  for (let ctx = 0; ctx < V * V; ctx++) {
    let z = 0;
    const row = rows[order === 1 ? ctx % V : ctx]!; // ctx = c1·V + c2
    for (let j = 0; j < V; j++) z += transition[ctx * V + j] = row[j]!;
    for (let j = 0; j < V; j++) {
      const p = (transition[ctx * V + j]! /= z);
      if (p > 0) entropy -= (p * Math.log(p)) / (V * V); // contexts weighted uniformly (approximation of the stationary weights)
    }
  }
  const tokens = new Uint8Array(length);
  tokens[0] = Math.floor(rng() * V);
  tokens[1] = Math.floor(rng() * V);
  for (let t = 2; t < length; t++) {
    const row = (tokens[t - 2]! * V + tokens[t - 1]!) * V;
    let u = rng();
    let j = 0;
    while (j < V - 1 && (u -= transition[row + j]!) > 0) j++;
    tokens[t] = j;
  }
  return { vocabSize: V, tokens, transition, entropyNats: entropy };
}

/** A batch of (context, next symbol) pairs. */
export interface Batch {
  /** (B, 2): the two previous symbols. */
  context: Uint8Array;
  /** (B): the symbol to predict. */
  target: Uint8Array;
}

/**
 * Samples `batchSize` positions of `text` uniformly (seeded).
 * @param text the corpus
 * @param batchSize number of examples, integer >= 1
 * @param rng the generator (advanced)
 */
export function sampleBatch(text: MarkovText, batchSize: number, rng: Rng): Batch {
  if (!(Number.isInteger(batchSize) && batchSize >= 1)) throw new RangeError(`batchSize must be an integer >= 1, got ${batchSize}`);
  const context = new Uint8Array(batchSize * 2);
  const target = new Uint8Array(batchSize);
  for (let i = 0; i < batchSize; i++) {
    const t = 2 + Math.floor(rng() * (text.tokens.length - 2));
    context[2 * i] = text.tokens[t - 2]!;
    context[2 * i + 1] = text.tokens[t - 1]!;
    target[i] = text.tokens[t]!;
  }
  return { context, target };
}
