import { skipToken } from '@reduxjs/toolkit/query';
import type { Contact, Segment } from '@herald/contracts';
import { useCountSegmentQuery, useListSegmentsQuery } from '../../lib/segments-api';
import { useGetSegmentFirstContactQuery } from './api';
import type { BroadcastFormState } from './broadcast-form';

export type SegmentChoice = {
  /** The account's saved segments; undefined while loading (or before the Segment mode is opened). */
  segments: Segment[] | undefined;
  failed: boolean;
  /** The segment the form names, once the list holds it. */
  chosen: Segment | null;
  /** Its contacts (opted-out ones included, as a tag's count); undefined while unknown. */
  contacts: number | undefined;
  /** Its first member, whose values the preview shows; null when it has none (or while unknown). */
  firstContact: Contact | null;
};

/**
 * The Segment mode's data: the saved segments, asked only once the mode is opened (most broadcasts never
 * need them), and the chosen one's contacts for the figures before the server's estimate answers.
 */
export function useSegmentChoice(
  state: Pick<BroadcastFormState, 'retarget' | 'mode' | 'segmentId'>,
): SegmentChoice {
  const open = !state.retarget && state.mode === 'segment';
  const list = useListSegmentsQuery(open ? undefined : skipToken, { refetchOnMountOrArgChange: true });
  const chosen = list.data?.find((segment) => segment.id === state.segmentId) ?? null;
  const count = useCountSegmentQuery(open && chosen ? chosen.definition : skipToken);
  const first = useGetSegmentFirstContactQuery(open && chosen ? chosen.id : skipToken);
  return {
    segments: list.data,
    failed: list.isError,
    chosen,
    contacts: count.currentData?.matching,
    firstContact: first.currentData?.results[0] ?? null,
  };
}
