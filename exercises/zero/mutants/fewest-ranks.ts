import type { Mutant } from "../../harness/index.js";
import type { fewestRanks } from "../fewest-ranks.js";

type F = typeof fewestRanks;
interface Options { divide?: boolean; strict?: boolean; allPartitioned?: boolean; zeroIsZero?: boolean; noCheck?: boolean; stageShift?: boolean }

const make = (o: Options = {}): F => (n, stage, b) => {
  if (!o.noCheck) {
    if (![0, 1, 2, 3].includes(stage)) throw new RangeError(`stage must be 0, 1, 2 or 3, got ${stage}`);
    if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`numParams must be an integer >= 0, got ${n}`);
    if (!Number.isSafeInteger(b) || b < 0) throw new RangeError(`bytesPerRank must be a safe integer >= 0, got ${b}`);
  }
  if (n === 0) return o.zeroIsZero ? 0 : 1;
  const s = o.stageShift ? Math.min(3, stage + 1) : stage;
  const whole = o.allPartitioned ? 0 : (s >= 3 ? 0 : 2) + (s >= 2 ? 0 : 2) + (s >= 1 ? 0 : 12);
  const part = 16 - whole;
  const room = b - whole * n;
  if (part === 0) return room >= 0 ? 1 : null;
  if (o.divide) { const P = Math.ceil((part * n) / room); return room > 0 && P <= n ? Math.max(1, P) : null; }
  const k = Math.floor((o.strict ? room - 1 : room) / part);
  if (k < 1) return null;
  return Math.ceil(n / Math.min(k, n));
};

export const mutants: Record<string, Mutant<F>> = {
  "P from dividing the bytes, not from whole-element shards": { impl: make({ divide: true }), caughtBy: "exactly at the memory: equal fits" },
  "states that fit exactly need one more rank (< instead of ≤)": { impl: make({ strict: true }), caughtBy: "exactly at the memory: equal fits" },
  "every state partitioned, whatever the stage": { impl: make({ allPartitioned: true }), caughtBy: ["each stage: 7.5B parameters on 32 GB ranks", "stage 0, and memories no P reaches: null"] },
  "each stage partitions one state too many": { impl: make({ stageShift: true }), caughtBy: "each stage: 7.5B parameters on 32 GB ranks" },
  "no parameter needs no rank": { impl: make({ zeroIsZero: true }), caughtBy: "no parameter; one element per rank" },
  "no check of the input": { impl: make({ noCheck: true }), caughtBy: "bad input" },
};
