// Data loader (Node, build time): the pipeline-parallel page's worked example (p = 4, m = 8,
// F = 1, B = 2) and the fixed figures its prose and corrections quote, from lib/pipeline-parallel.
import { gpipeSchedule, oneFOneBSchedule, interleavedSchedule, naiveSchedule, zbH1Schedule, zbH2Schedule, zbVSchedule, dualPipeSchedule, stepTime, busyTimes, stageSpans, bubbleFraction, bubbleFractionOfStep, peakInFlight, p2pSendMs, closedFormBubble, zeroBubblePassFlops, scheduleClosedForm, simulateOptimizerStep, rollbackAdamW } from "../../lib/pipeline-parallel/index.js";
import { AdamW } from "../../lib/nn/index.js";
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
// The newest schedules at p = 4, m = 8, F = B = W = 1 (Qi et al.'s Figures 3 and 8), DualPipe at the README figure's 8 ranks and
// 20 micro-batches, and three iterations of ZB-H2 with the optimizer step synchronised or post-validated.
const unit = { forward: 1, backward: 1, weight: 1 };
const h1 = zbH1Schedule(p, m, unit), h2 = zbH2Schedule(p, m, unit), zv = zbVSchedule(p, m, unit), dp = dualPipeSchedule(8, 20, unit);
const stepOpts = { times: unit, iterations: 3, optimizerMs: 1, allReduceMs: 0.5, stateSendMs: 0.1 };
const newest = {
  zbH1Step: stepTime(h1), zbH2Step: stepTime(h2), zbH2Span: Math.max(...stageSpans(h2)), zbH2Busy: busyTimes(h2)[0], zbH2Peak: Math.max(...peakInFlight(h2)),
  zbVStep: stepTime(zv), zbVSpan: Math.max(...stageSpans(zv)), zbVPeak: Math.max(...peakInFlight(zv)),
  dualPipe: { p: 8, m: 20, step: stepTime(dp), busy: busyTimes(dp)[0], closed: scheduleClosedForm("dualpipe", 8, unit).bubbleMs, peak: Math.max(...peakInFlight(dp)) },
  dualPipeGain: { p: 8, m: 24, overlapped: 2, measured: (() => { const s = dualPipeSchedule(8, 24, { ...unit, overlapped: 2 }); return Math.max(...stageSpans(s)) - busyTimes(s)[0]; })(), closed: scheduleClosedForm("dualpipe", 8, { ...unit, overlapped: 2 }).bubbleMs },
  steps: { ...stepOpts, sync: simulateOptimizerStep(h2, { ...stepOpts, postValidation: false }).totalMs, post: simulateOptimizerStep(h2, { ...stepOpts, postValidation: true }).totalMs,
    postInf: simulateOptimizerStep(h2, { ...stepOpts, postValidation: true, faults: [{ iteration: 1, stage: 2, kind: "inf" }] }).totalMs },
};
// Qi et al.'s in-place rollback (Appendix C) on 4096 weights after one AdamW step (lr 1e-2): how far from the weights before the step.
const rollback = (() => {
  let seed = 12345;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 4 - 2;
  const n = 4096, data = Float32Array.from({ length: n }, rnd), grad = Float32Array.from({ length: n }, rnd), before = Float32Array.from(data);
  const opt = new AdamW([{ name: "w", shape: [n], data, grad }], { lr: 1e-2 });
  opt.step(); rollbackAdamW(opt);
  const bits = (x: number) => new Int32Array(Float32Array.of(x).buffer)[0];
  let exact = 0, maxUlps = 0;
  for (let i = 0; i < n; i++) { const d = Math.abs(bits(data[i]) - bits(before[i])); if (d === 0) exact++; maxUlps = Math.max(maxUlps, d); }
  return { weights: n, exact, maxUlps };
})();
process.stdout.write(JSON.stringify({
  zbTable1, zbSmallM, newest, rollback,
  p, m, v,
  naive: summary(naiveSchedule(p, m, times)),
  gpipe: summary(gpipeSchedule(p, m, times)),
  oneFOneB: summary(oneFOneBSchedule(p, m, times)),
  interleaved: summary(interleavedSchedule(p, m, v, times)),
  naiveOneMicroBatchIdle: bubbleFractionOfStep(naiveSchedule(p, 1, times)),
  llama: { activationBytes: llamaActivationBytes, sendMs: p2pSendMs(llamaActivationBytes, DEFAULT_COST_MODEL), alphaUs: DEFAULT_COST_MODEL.alphaS * 1e6, bandwidthGBps: DEFAULT_COST_MODEL.bandwidthBytesPerS / 1e9 },
}));
