/**
 * Seeded pseudo-random numbers shared by every chapter, so that every run of a test, a figure or a
 * grader sees the same initial weights and the same batches.
 */

/**
 * A function returning the next uniform number in [0, 1).
 * @see the sources of {@link mulberry32}: https://gist.github.com/tommyettinger/46a874533244883189143505d203312c
 */
export type Rng = () => number;

/**
 * mulberry32: a 32-bit-state generator (Tommy Ettinger, public domain),
 * small, fast and good enough for initialising and sampling toy models.
 *
 * @param seed any integer; only its low 32 bits are used
 * @returns a generator of uniform numbers in [0, 1), each a multiple of 2^-32
 * @throws {TypeError} `seed must be a finite integer, got <seed>`
 * @example
 * const rng = mulberry32(42);
 * rng(); // 0.6011037519201636 (the same on every machine)
 * @see https://gist.github.com/tommyettinger/46a874533244883189143505d203312c
 */
export function mulberry32(seed: number): Rng {
  if (!Number.isInteger(seed)) throw new TypeError(`seed must be a finite integer, got ${seed}`);
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A standard normal sample by the Box–Muller transform: sqrt(−2 ln u1)·cos(2π u2).
 *
 * @param rng a uniform generator (e.g. {@link mulberry32})
 * @returns one sample of N(0, 1)
 * @example
 * gaussian(mulberry32(1)); // a number, about 68% of the time in [−1, 1]
 * @see Box & Muller 1958, "A Note on the Generation of Random Normal Deviates"
 */
export function gaussian(rng: Rng): number {
  const u1 = 1 - rng(); // in (0, 1]: log is finite
  const u2 = rng();
  return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
}

/**
 * A uniform integer in [0, n).
 *
 * @param rng a uniform generator
 * @param n the number of choices, an integer >= 1
 * @returns floor(rng() · n)
 * @throws {RangeError} `n must be an integer >= 1, got <n>`
 * @example
 * randomInt(mulberry32(7), 10); // an integer in 0..9
 * @see MDN, `Math.random()`, "Getting a random integer between two values" (the same floor(u·n) construction; its bias is below n·2^−32)
 */
export function randomInt(rng: Rng, n: number): number {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`n must be an integer >= 1, got ${n}`);
  return Math.floor(rng() * n);
}
