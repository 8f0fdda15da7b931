import { skipToken } from '@reduxjs/toolkit/query';
import type { BroadcastEstimateResponse } from '@herald/contracts';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { useGetBroadcastEstimateQuery } from './api';
import { estimateRequest } from './broadcast-form';
import type { BroadcastFormState } from './broadcast-form';

/** How long the form must stay still before the server is asked again (a slider drag is many changes). */
export const ESTIMATE_DEBOUNCE_MS = 400;

export type BroadcastEstimate = {
  /** The figures for the broadcast as it would be sent; undefined until the first answer. */
  estimate: BroadcastEstimateResponse | undefined;
  /** Recipients with +1 numbers a marketing template would not reach (0 for other categories). */
  usNumbers: number;
  failed: boolean;
  /** Whether `estimate` answers the form as it is now (not the figures of a choice the user has since changed). */
  current: boolean;
};

/**
 * POST /broadcast/estimate/ for the form, debounced. Asked with the US numbers kept in, so their count (and
 * the offer to leave them out) stays while the user has taken it; asked again with them left out for the
 * figures the broadcast will really have.
 */
export function useBroadcastEstimate(state: BroadcastFormState, wabaId: string | null): BroadcastEstimate {
  const withUs = useDebouncedValue(estimateRequest(state, false), ESTIMATE_DEBOUNCE_MS);
  const withoutUs = useDebouncedValue(
    state.leaveOutUsNumbers ? estimateRequest(state, true) : null,
    ESTIMATE_DEBOUNCE_MS,
  );
  // `data` rather than `currentData`: the last figures stay on screen while the next ones load, not a flicker.
  const kept = useGetBroadcastEstimateQuery(withUs ? { body: withUs, wabaId } : skipToken);
  const left = useGetBroadcastEstimateQuery(withoutUs ? { body: withoutUs, wabaId } : skipToken);
  const usNumbers = kept.data?.template_category?.toUpperCase() === 'MARKETING' ? kept.data.us_numbers : 0;
  const chosen = state.leaveOutUsNumbers && usNumbers > 0 ? left : kept;
  const now = estimateRequest(state, state.leaveOutUsNumbers && usNumbers > 0);
  return {
    estimate: chosen.data ?? kept.data,
    usNumbers,
    failed: chosen.isError && chosen.data === undefined,
    current:
      chosen.data !== undefined &&
      !chosen.isFetching &&
      JSON.stringify(chosen.originalArgs?.body) === JSON.stringify(now),
  };
}
