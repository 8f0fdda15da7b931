// What other features use of the metrics (decision 071: features meet only through index.ts): the counters
// they move and the registry the health server exposes.
export { HeraldMetrics } from './metrics-registry';
export { countSendResults } from './send-outcomes';
export { statusRepairs } from './status-repairs';
