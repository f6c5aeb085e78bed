// The lib code that src/sophia.md imports, bundled into one module by scripts/bundle.ts.
export {sophiagStep, hessianEma, hessianSchedule, gnbLogitEstimate, hutchinson, stepsToTarget, trailingMean, toyLoss, toyTrajectory, sophiagKernelError, isHessianStep, SOPHIAG_DEFAULTS, SOPHIA_EPS} from "../../lib/sophia/index.js";
export {mulberry32} from "../../lib/nn/index.js";
