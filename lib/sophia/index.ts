/**
 * Chapter 11 (`sophia`): SophiaG as the authors' code defines it, its two diagonal
 * Hessian estimators (GNB, Hutchinson), Lion, and a comparison with lib/nn's AdamW
 * on the course's character model.
 */
export { SophiaG, sophiagStep, hessianEma, isHessianStep, hessianSchedule, validateSophiaG, SOPHIA_EPS, SOPHIAG_DEFAULTS, type SophiaGOptions } from "./sophiag.js";
export { Lion, lionStep, validateLion, type LionOptions } from "./lion.js";
export { winRate, rhoForWinRate, chooseRho, sophiagStepWithWinRate } from "./winRate.js";
export { hutchinson, rademacher, fdHvp, sampleIndex, gnbGradients, gnbLogitEstimate, modelGrad, modelHvp } from "./estimators.js";
export { clipGradNorm } from "./clipGradNorm.js";
export { sophiagKernelError } from "./sophiagKernelError.js";
export { trainCompare, type TrainCompareOptions, type TrainCompareResult, type OptimizerName } from "./trainCompare.js";
export { trailingMean, stepsToTarget } from "./stepsToTarget.js";
export { toyLoss, toyTrajectory, type ToyLoss, type ToyMethod, type ToyOptions } from "./toy.js";
