/**
 * Moving Float32Arrays in and out of the course's gpu.js kernels four values at a time:
 * on WebGL a flat Float32Array is uploaded as it is (gpu.js stores four floats per
 * texel), on the cpu backend the same kernel body needs a JavaScript array of
 * four-element views; results come back as one flat Float32Array either way.
 */

/**
 * Whether a gpu.js backend name is one of the WebGL backends (textures, pipelines, raw readback).
 * @param backend a name from backendName
 * @returns true for "webgl2", "webgl" and "headlessgl"
 * @example isGlBackend("webgl2") // true; isGlBackend("cpu") // false
 * @see gpu.js 2.24 README, "Supported Backends"
 */
export function isGlBackend(backend: string): boolean {
  return backend === "webgl2" || backend === "webgl" || backend === "headlessgl";
}

/**
 * The `Array1D(4)` form of a flat array for gpu.js's cpu backend: element t is the view
 * a[4t … 4t + 3] (a zero-padded copy first when the length is not a multiple of 4).
 * @param a (n,) values
 * @returns ⌈n/4⌉ views of 4 values each (sharing a's memory when n % 4 = 0)
 * @example toVec4Views(Float32Array.of(1, 2, 3, 4, 5))[1] // Float32Array [5, 0, 0, 0]
 * @see gpu.js 2.24 README, "Types" (Array1D(4): an array of 4-element arrays)
 */
export function toVec4Views(a: Float32Array): Float32Array[] {
  const src = a.length % 4 === 0 ? a : (() => { const p = new Float32Array(Math.ceil(a.length / 4) * 4); p.set(a); return p; })();
  const out = new Array<Float32Array>(src.length / 4);
  for (let t = 0; t < out.length; t++) out[t] = src.subarray(4 * t, 4 * t + 4);
  return out;
}

/**
 * The first `length` values of a kernel's result as a new flat Float32Array, texel after
 * texel: from a WebGL pipeline texture (its raw RGBA floats, read with one readPixels), or
 * from the nested arrays of four-value texels that the cpu backend returns.
 * @param result what a kernel with `returnType: "Array(4)"` returned
 * @param length how many values to keep
 * @returns (length,) a new Float32Array
 * @throws {RangeError} `the kernel returned 8 values, 9 were asked for`
 * @example flattenResult([Float32Array.of(1, 2, 3, 4), Float32Array.of(5, 6, 7, 8)], 6) // Float32Array [1, 2, 3, 4, 5, 6]
 * @see gpu.js 2.24 README, "Pipelining" (Texture, renderRawOutput)
 */
export function flattenResult(result: unknown, length: number): Float32Array<ArrayBuffer> {
  const texture = result as { renderRawOutput?: () => Float32Array<ArrayBuffer> } | null;
  if (texture && typeof texture.renderRawOutput === "function") {
    const raw = texture.renderRawOutput();
    if (raw.length < length) throw new RangeError(`the kernel returned ${raw.length} values, ${length} were asked for`);
    return raw.slice(0, length);
  }
  const out = new Float32Array(length);
  let at = 0;
  const walk = (x: unknown): void => {
    if (at >= length) return;
    if (x instanceof Float32Array || (Array.isArray(x) && typeof x[0] === "number")) {
      const v = x as ArrayLike<number>;
      for (let i = 0; i < v.length && at < length; i++) out[at++] = v[i];
    } else if (Array.isArray(x)) for (const y of x) walk(y);
  };
  walk(result);
  if (at < length) throw new RangeError(`the kernel returned ${at} values, ${length} were asked for`);
  return out;
}

/**
 * Rows of d values padded with zeros to dp ≥ d columns, so that a row starts on a texel
 * (dp a multiple of 4): the array itself when dp = d.
 * @param x (rows, d) row-major
 * @param rows number of rows
 * @param d values per row
 * @param dp padded row length
 * @returns (rows, dp) row-major
 * @example padColumns(Float32Array.of(1, 2, 3, 4, 5, 6), 2, 3, 4) // Float32Array [1, 2, 3, 0, 4, 5, 6, 0]
 * @see gpu.js 2.24 README, "Types" (Array1D(4))
 */
export function padColumns(x: Float32Array, rows: number, d: number, dp: number): Float32Array {
  if (dp === d) return x;
  const out = new Float32Array(rows * dp);
  for (let r = 0; r < rows; r++) out.set(x.subarray(r * d, r * d + d), r * dp); // (rows, dp)
  return out;
}
