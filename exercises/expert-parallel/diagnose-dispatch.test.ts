import * as fc from "fast-check";
import { diagnoseDispatch as libDiagnose, planDispatch, EpComm } from "../../lib/expert-parallel/index.js";
import { mulberry32 } from "../../lib/nn/index.js";
import { defineExercise, expectSame, expectThrows, property } from "../harness/index.js";
import type { diagnoseDispatch, DispatchSetup, LoggedMessage } from "./diagnose-dispatch.js";

type F = typeof diagnoseDispatch;
const SEE = "see the section “What an all-to-all costs”";
const reference: F = (m, s) => libDiagnose(m, s);
const TOL = { rel: 1e-9, abs: 1e-12 };
const only = (key: "receivedPerRank" | "hotRank" | "slowdown") => (f: F): F => (m, s) => ({ [key]: f(m, s)?.[key] }) as ReturnType<F>;

/** A dropless dispatch simulated on the course's World: `hot` takes every token's first choice (a collapsed router), or nobody when hot < 0. */
function simulate(seed: number, g: number, hot: number | null) {
  const rng = mulberry32(seed), P = 4, L = 2, E = P * L, k = 2, N = 4 + Math.floor(rng() * 6), h = 1 + Math.floor(rng() * 4);
  const hotExpert = hot ?? Math.floor(rng() * E);
  const routings = Array.from({ length: P }, () => {
    const experts: number[] = [];
    for (let t = 0; t < N; t++) {
      const first = rng() < 0.9 ? hotExpert : Math.floor(rng() * E);
      experts.push(first, (first + 1 + Math.floor(rng() * (E - 1))) % E);
    }
    return { experts, gates: experts.map(() => 0.5) };
  });
  const plan = planDispatch(routings, { numExperts: E, topK: k, epSize: P, capacityFactor: null, dropPolicy: "position", hiddenSize: h });
  const cost = { alphaS: 2e-6, bandwidthBytesPerS: 4e8 }, topology = g < P ? { ranksPerNode: g, interNodeBandwidthBytesPerS: 1e8 } : undefined;
  const comm = new EpComm(P, cost, 4, topology);
  comm.allToAll(plan.sendOrder.map((o) => new Float32Array(o.length * h)), plan.splits.map((row) => row.map((n) => n * h)), "dispatch");
  const messages: LoggedMessage[] = comm.log[0].events.map((e) => ({ sender: e.sender, receiver: e.receiver, bytes: e.bytes, t: e.t, tEnd: e.tEnd }));
  const setup: DispatchSetup = { numRanks: P, tokensPerRank: N, topK: k, hiddenSize: h, bytesPerElement: 4, cost, topology };
  return { messages, setup };
}

export default defineExercise<F>({
  id: "14.5",
  title: "diagnose a slow dispatch: a collapsed router in the log",
  chapter: "expert-parallel",
  file: "exercises/expert-parallel/diagnose-dispatch.ts",
  exportName: "diagnoseDispatch",
  signature: "diagnoseDispatch(messages: LoggedMessage[], s: DispatchSetup): {receivedPerRank, hotRank, slowdown}",
  summary: "From the World's log of one dispatch all-to-all, find each rank's load (its own pairs never appear in the log), the hot rank, and how much slower the step was than with balanced routing, nodes included. Graded on dispatches simulated on the course's World with a collapsed router, inside one node and across nodes.",
  reference,
  section: "what-an-all-to-all-costs",
  solution: ["lib/expert-parallel/diagnoseDispatch.ts"],
  checks: [
    { name: "worked example", points: 1, run: async (f) => {
        await expectSame(f, reference, [[{ sender: 1, receiver: 0, bytes: 8, t: 0, tEnd: 1 }], { numRanks: 2, tokensPerRank: 1, topK: 1, hiddenSize: 2, bytesPerElement: 4, cost: { alphaS: 0, bandwidthBytesPerS: 8 } }], { tol: TOL, hint: `the stub's @example (${SEE})` });
    } },
    { name: "each rank's load, its own pairs included", points: 2, run: (f) => property(fc.tuple(fc.integer({ min: 0, max: 1e6 }), fc.constantFrom(1, 2, 4)), async ([seed, g]) => {
        const { messages, setup } = simulate(seed, g, null);
        await expectSame(only("receivedPerRank")(f), only("receivedPerRank")(reference), [messages, setup], { tol: TOL, hint: `a rank's pairs for its own experts are copied locally and never logged: N·k minus what it sent (${SEE})` });
    }, { numRuns: 30 }) },
    { name: "the hot rank (ties to the lower index)", points: 1, run: async (f) => {
        for (const seed of [1, 2, 3]) {
          const { messages, setup } = simulate(seed, 4, 5); // expert 5 lives on rank 2
          await expectSame(only("hotRank")(f), only("hotRank")(reference), [messages, setup], { hint: "the rank whose experts received the most pairs" });
        }
        // nothing leaves any rank: every rank kept its N·k pairs, a tie → rank 0
        await expectSame(only("hotRank")(f), only("hotRank")(reference), [[], { numRanks: 3, tokensPerRank: 2, topK: 1, hiddenSize: 1, bytesPerElement: 4, cost: { alphaS: 0, bandwidthBytesPerS: 1 } }], { hint: "equal loads: the lowest index" });
    } },
    { name: "slowdown against balanced routing, with α and across nodes", points: 1, run: (f) => property(fc.tuple(fc.integer({ min: 0, max: 1e6 }), fc.constantFrom(1, 2, 4)), async ([seed, g]) => {
        const { messages, setup } = simulate(seed, g, null);
        await expectSame(only("slowdown")(f), only("slowdown")(reference), [messages, setup], { tol: TOL, hint: `balanced: each rank sends N·k·h·b·(P−1)/P bytes; between nodes the network port, inside the node the NVLink-like link, at the same time; α once (${SEE})` });
    }, { numRuns: 30 }) },
    { name: "a message that is not a whole number of tokens", points: 1, run: async (f) => {
        await expectThrows(f, [[{ sender: 1, receiver: 0, bytes: 10, t: 0, tEnd: 1 }], { numRanks: 2, tokensPerRank: 1, topK: 1, hiddenSize: 4, bytesPerElement: 4, cost: { alphaS: 0, bandwidthBytesPerS: 1 } }], /bytes|token/, { class: RangeError, hint: "a token is h·bytesPerElement bytes" });
        await expectSame(f, reference, [[], { numRanks: 1, tokensPerRank: 3, topK: 2, hiddenSize: 2, bytesPerElement: 2, cost: { alphaS: 1e-6, bandwidthBytesPerS: 1 } }], { tol: TOL, hint: "one rank: nothing moves, nothing to compare: slowdown 1" });
    } },
  ],
});
