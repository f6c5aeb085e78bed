// The lib code that src/sophia.md imports, bundled into one module by scripts/bundle.ts.
export {sophiagStep, hessianEma, hessianSchedule, gnbLogitEstimate, hutchinson, stepsToTarget, trailingMean, toyLoss, toyTrajectory, SOPHIAG_DEFAULTS, SOPHIA_EPS} from "../../lib/sophia/index.js";
