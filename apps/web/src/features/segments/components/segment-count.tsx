import { skipToken } from '@reduxjs/toolkit/query';
import type { SegmentDefinition } from '@herald/contracts';
import { useCountSegmentQuery } from '../../../lib/segments-api';
import { useDebouncedValue } from '../../../lib/use-debounced-value';

/** How long the rules must rest before they are counted: one count per pause, not per keystroke. */
export const COUNT_DEBOUNCE_MS = 400;

const count = (value: number) => value.toLocaleString('en-US');

/** "1,234 contacts match · 1,200 can be messaged", in the singular for one. */
export function countText(matching: number, reachable: number): string {
  return `${count(matching)} ${matching === 1 ? 'contact matches' : 'contacts match'} · ${count(reachable)} can be messaged`;
}

/**
 * The live count of the rules being built: asked once they are complete and valid and have rested a moment;
 * the last count stays (dimmed) while the next one is on its way, so the line does not flicker.
 */
export function SegmentCount({ definition }: { definition: SegmentDefinition | null }) {
  const settled = useDebouncedValue(definition, COUNT_DEBOUNCE_MS);
  const { data, isError, isFetching } = useCountSegmentQuery(definition && settled ? settled : skipToken);
  const stale = isFetching || JSON.stringify(definition) !== JSON.stringify(settled);
  const text = !definition
    ? 'Complete the rules to see the count'
    : isError && !stale
      ? 'The count could not be loaded.'
      : data
        ? countText(data.matching, data.reachable)
        : 'Counting…';
  return (
    <p
      data-testid="segment-count"
      role="status"
      className={`text-sm font-medium ${definition && data && stale ? 'text-slate-500' : 'text-slate-800'}`}
    >
      {text}
    </p>
  );
}
