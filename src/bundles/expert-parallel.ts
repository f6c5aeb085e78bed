// What src/expert-parallel.md takes from lib/ (scripts/bundle.ts makes it one module, expert-parallel.js).
export { topKRouting, expertCapacity, applyCapacity, loadBalancingLoss, routerZLoss, mulberry32, gaussian } from "../../lib/nn/index.js";
export { planDispatch, moeParallelGroups, activeParameters, moeMemoryPerGpu, moeLayerCommTime, loadImbalance, trainMoeDemo } from "../../lib/expert-parallel/index.js";
export { linkCostModel, allToAllLinks, LINK_PRESETS } from "../../lib/collectives/index.js";
