/**
 * Independent ports of PyTorch's float32 → narrow-format casts, written with
 * bit operations on the float32 pattern as in c10's headers. The tests use
 * them as oracles for `encode` (a different algorithm: exact arithmetic on
 * float64); they are not used by the rest of the library.
 * @see pytorch/c10/util/BFloat16.h (round_to_nearest_even),
 *   c10/util/Float8_e4m3fn.h (fp8e4m3fn_from_fp32_value),
 *   c10/util/Float8_e5m2.h (fp8e5m2_from_fp32_value)
 */

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/**
 * The binary32 pattern of the float32 nearest x.
 * @example fp32Bits(1) // 0x3f800000
 * @param x any number (float64; rounded to float32, ties to even)
 * @returns the 32-bit pattern as an unsigned integer in [0, 2^32)
 * @see IEEE 754-2008 §3.4 (binary32 encoding); c10/util/floating_point_utils.h fp32_to_bits
 */
export function fp32Bits(x: number): number {
  f32[0] = x;
  return u32[0];
}

/**
 * The float32 whose pattern is `bits`.
 * @example fp32FromBits(0x3f800000) // 1
 * @param bits an integer pattern (taken modulo 2^32)
 * @returns the float32 value, as a number
 * @see IEEE 754-2008 §3.4; c10/util/floating_point_utils.h fp32_from_bits
 */
export function fp32FromBits(bits: number): number {
  u32[0] = bits >>> 0;
  return f32[0];
}

/**
 * c10 `round_to_nearest_even(float)`: float32 → bf16 bits; NaN → 0x7FC0.
 * @example c10Bf16Bits(1.01171875) // 0x3f82
 * @param x any number (first rounded to float32)
 * @returns the 16-bit bf16 pattern in [0, 0xffff]
 * @see pytorch c10/util/BFloat16.h, round_to_nearest_even
 */
export function c10Bf16Bits(x: number): number {
  if (Number.isNaN(x)) return 0x7fc0;
  const u = fp32Bits(x);
  const roundingBias = ((u >>> 16) & 1) + 0x7fff;
  return ((u + roundingBias) >>> 16) & 0xffff;
}

/**
 * The same trick for TF32 (13 dropped bits): float32 → 19-bit tf32 pattern,
 * ties to even; NaN → 0x3FE00.
 * @example c10StyleTf32Bits(1) // 0x1fc00
 * @param x any number (first rounded to float32)
 * @returns the 19-bit tf32 pattern in [0, 0x7ffff]
 * @see pytorch c10/util/BFloat16.h round_to_nearest_even (the same bias trick, here on 13 dropped bits; c10 has no tf32 cast); NVIDIA A100 whitepaper (TF32: 8 exponent, 10 mantissa bits)
 */
export function c10StyleTf32Bits(x: number): number {
  if (Number.isNaN(x)) return 0x3fe00;
  const u = fp32Bits(x);
  const roundingBias = ((u >>> 13) & 1) + 0xfff;
  return Math.floor((u + roundingBias) / 2 ** 13); // u + bias may exceed 2^32 - 1 only for NaN patterns
}

/**
 * c10 `fp8e4m3fn_from_fp32_value`: ≥ 480 (and NaN, Inf) → 0x7F; below 2^−6 the
 * float32 addition of 2^14 rounds to multiples of 2^−9; otherwise add the
 * rounding bias to the pattern.
 * @example c10E4m3fnBits(448) // 0x7e
 * @param x any number (first rounded to float32)
 * @returns the 8-bit E4M3FN pattern in [0, 0xff]
 * @see pytorch c10/util/Float8_e4m3fn.h, fp8e4m3fn_from_fp32_value; OCP OFP8 v1.0 (E4M3)
 */
export function c10E4m3fnBits(x: number): number {
  const fp8Max = 1087 << 20; // 480 as float32 bits
  const denormMask = 141 << 23; // 2^14
  let bits = fp32Bits(x);
  const sign = bits & 0x80000000;
  bits = (bits ^ sign) >>> 0;
  let result: number;
  if (bits >= fp8Max) result = 0x7f;
  else if (bits < 121 << 23) {
    bits = fp32Bits(Math.fround(fp32FromBits(bits) + fp32FromBits(denormMask)));
    result = (bits - denormMask) & 0xff;
  } else {
    const mantOdd = (bits >>> 20) & 1;
    bits = (bits + ((7 - 127) << 23) + 0x7ffff + mantOdd) >>> 0;
    result = (bits >>> 20) & 0xff;
  }
  return result | (sign >>> 24);
}

/**
 * c10 `fp8e5m2_from_fp32_value`: ≥ 65536 → Inf (0x7C), NaN → 0x7F; below
 * 2^−14 the float32 addition of 2^7 rounds to multiples of 2^−16.
 * @example c10E5m2Bits(57344) // 0x7b
 * @param x any number (first rounded to float32)
 * @returns the 8-bit E5M2 pattern in [0, 0xff]
 * @see pytorch c10/util/Float8_e5m2.h, fp8e5m2_from_fp32_value; OCP OFP8 v1.0 (E5M2)
 */
export function c10E5m2Bits(x: number): number {
  const fp32Inf = 255 << 23;
  const fp8Max = 143 << 23; // 65536
  const denormMask = 134 << 23; // 2^7
  let bits = fp32Bits(x);
  const sign = bits & 0x80000000;
  bits = (bits ^ sign) >>> 0;
  let result: number;
  if (bits >= fp8Max) result = bits > fp32Inf ? 0x7f : 0x7c;
  else if (bits < 113 << 23) {
    bits = fp32Bits(Math.fround(fp32FromBits(bits) + fp32FromBits(denormMask)));
    result = (bits - denormMask) & 0xff;
  } else {
    const mantOdd = (bits >>> 21) & 1;
    bits = (bits + ((15 - 127) << 23) + 0xfffff + mantOdd) >>> 0;
    result = (bits >>> 21) & 0xff;
  }
  return result | (sign >>> 24);
}
