import type {
  Segment,
  SegmentCountResponse,
  SegmentDefinition,
  SegmentFieldsResponse,
  SegmentRequest,
} from '@herald/contracts';
import { api } from './api';

/**
 * The saved segments of the selected account (GET/POST /segments/, GET/PUT/DELETE /segments/{id}/), their live
 * count (POST /segments/count/) and what rules can name (GET /segments/fields/). Shared plumbing: Customers
 * builds and filters by them, New broadcast sends to them.
 */
export const segmentsApi = api.enhanceEndpoints({ addTagTypes: ['Segments'] }).injectEndpoints({
  endpoints: (build) => ({
    listSegments: build.query<Segment[], void>({
      query: () => '/segments/',
      transformResponse: (answer: { results: Segment[] }) => answer.results,
      providesTags: ['Segments'],
    }),
    segmentFields: build.query<SegmentFieldsResponse, void>({
      query: () => '/segments/fields/',
    }),
    countSegment: build.query<SegmentCountResponse, SegmentDefinition>({
      query: (definition) => ({ url: '/segments/count/', method: 'POST', body: { definition } }),
      keepUnusedDataFor: 30,
    }),
    createSegment: build.mutation<Segment, SegmentRequest>({
      query: (body) => ({ url: '/segments/', method: 'POST', body }),
      invalidatesTags: (result) => (result ? ['Segments'] : []),
    }),
    updateSegment: build.mutation<Segment, { id: number; request: SegmentRequest }>({
      query: ({ id, request }) => ({ url: `/segments/${id}/`, method: 'PUT', body: request }),
      invalidatesTags: (result) => (result ? ['Segments', 'Contacts'] : []),
    }),
    deleteSegment: build.mutation<void, number>({
      query: (id) => ({ url: `/segments/${id}/`, method: 'DELETE' }),
      invalidatesTags: ['Segments'],
    }),
  }),
});

export const {
  useListSegmentsQuery,
  useSegmentFieldsQuery,
  useCountSegmentQuery,
  useCreateSegmentMutation,
  useUpdateSegmentMutation,
  useDeleteSegmentMutation,
} = segmentsApi;
