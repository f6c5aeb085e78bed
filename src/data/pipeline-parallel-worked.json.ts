// Data loader (Node, build time): the pipeline-parallel page's worked example (p = 4, m = 8,
// F = 1, B = 2) and the fixed figures its prose and corrections quote, from lib/pipeline-parallel.
import { gpipeSchedule, oneFOneBSchedule, interleavedSchedule, naiveSchedule, zbH1Schedule, stepTime, busyTimes, bubbleFraction, bubbleFractionOfStep, peakInFlight, p2pSendMs, closedFormBubble, zeroBubblePassFlops } from "../../lib/pipeline-parallel/index.js";
import { DEFAULT_COST_MODEL } from "../../lib/collectives/index.js";

const p = 4, m = 8, v = 2;
const times = { forward: 1, backward: 1, weight: 1 }; // B = backward + weight = 2 where B is not split
const summary = (s: ReturnType<typeof gpipeSchedule>) => ({ step: stepTime(s), busy: busyTimes(s)[0], bubble: bubbleFraction(s), bubbleOfStep: bubbleFractionOfStep(s), peak: Math.max(...peakInFlight(s)) });
const llamaActivationBytes = 1 * 4096 * 4096 * 2; // one sequence of 4096 tokens × hidden 4096 × 2 bytes (bf16); Touvron et al. 2023, Table 1
// Qi et al.'s 1.5B model (Table 3: h = 2304, s = 1024; p = 8, m = 24) with their Table 1 pass FLOPs as times.
const qi = { hiddenSize: 2304, seqLen: 1024, p: 8, m: 24 };
const qiTimes = zeroBubblePassFlops({ seqLen: qi.seqLen, microBatch: 1, hiddenSize: qi.hiddenSize });
const zbTable1 = {
  ...qi, ...qiTimes,
  oneFOneB: bubbleFractionOfStep(oneFOneBSchedule(qi.p, qi.m, qiTimes)),
  zbH1: bubbleFractionOfStep(zbH1Schedule(qi.p, qi.m, qiTimes)),
};
// ZB-H1 with fewer micro-batches than stages (Qi et al., Appendix H), F = B = W.
const zbSmallM = { p: 4, m: 2, measured: bubbleFraction(zbH1Schedule(4, 2)), closed: closedFormBubble("zb-h1", 4, 2), thirdRule: 3 / (3 * 2) };
process.stdout.write(JSON.stringify({
  zbTable1, zbSmallM,
  p, m, v,
  naive: summary(naiveSchedule(p, m, times)),
  gpipe: summary(gpipeSchedule(p, m, times)),
  oneFOneB: summary(oneFOneBSchedule(p, m, times)),
  interleaved: summary(interleavedSchedule(p, m, v, times)),
  naiveOneMicroBatchIdle: bubbleFractionOfStep(naiveSchedule(p, 1, times)),
  llama: { activationBytes: llamaActivationBytes, sendMs: p2pSendMs(llamaActivationBytes, DEFAULT_COST_MODEL), alphaUs: DEFAULT_COST_MODEL.alphaS * 1e6, bandwidthGBps: DEFAULT_COST_MODEL.bandwidthBytesPerS / 1e9 },
}));
