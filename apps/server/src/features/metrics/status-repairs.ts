import { Counter } from 'prom-client';

/**
 * Message rows the repair sweep moved forward (decision 068): process-wide (the worker runs the sweep), added to
 * each metrics registry that exposes it (metrics-registry.ts). Anything above zero means a status was lost on
 * its way and recovered: worth an alert, since the webhook batch alone should never leave one.
 */
export const statusRepairs = new Counter({
  name: 'herald_status_repairs_total',
  help: 'Message rows the repair sweep found below a status Herald had processed for them, and moved forward',
  registers: [],
});
