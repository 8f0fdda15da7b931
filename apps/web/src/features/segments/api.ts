import type { BroadcastListResponse, BroadcastRow } from '@herald/contracts';
import { api } from '../../lib/api';

export type BroadcastName = { id: number; name: string };

/**
 * This feature's own read of the broadcasts, for an activity rule narrowed to one broadcast (features do not
 * reach into each other's endpoints). The latest page only: a saved rule naming an older one keeps it by number.
 */
export const segmentsFeatureApi = api.injectEndpoints({
  endpoints: (build) => ({
    getSegmentBroadcasts: build.query<BroadcastName[], string | null>({
      query: () => ({ url: '/broadcast/create/', params: { page: 1, sort: 'latest' } }),
      transformResponse: (answer: BroadcastListResponse | BroadcastRow[]) =>
        (Array.isArray(answer) ? answer : answer.results).map(({ id, name }) => ({ id, name })),
    }),
  }),
});

export const { useGetSegmentBroadcastsQuery } = segmentsFeatureApi;
