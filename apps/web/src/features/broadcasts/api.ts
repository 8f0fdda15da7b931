import type {
  BroadcastAction,
  BroadcastActionResponse,
  BroadcastCreateRequest,
  BroadcastCreateResponse,
  BroadcastEstimateRequest,
  BroadcastEstimateResponse,
  BroadcastListResponse,
  BroadcastReport,
  BroadcastRow,
  BroadcastTotals,
  ContactList,
  PhoneNumber,
  RetargetOutcome,
  Tag,
  TemplateDetail,
  TemplateListResponse,
} from '@herald/contracts';
import { api } from '../../lib/api';

export type BroadcastSort = 'latest' | 'oldest';

/** A page of broadcasts; `totals` is null when the server sent none (a bare array is accepted too). */
export type BroadcastPage = Omit<BroadcastListResponse, 'totals'> & { totals: BroadcastTotals | null };

function toBroadcastPage(answer: BroadcastListResponse | BroadcastRow[]): BroadcastPage {
  if (Array.isArray(answer))
    return { count: answer.length, next: null, previous: null, results: answer, totals: null };
  return { ...answer, totals: answer.totals ?? null };
}

type BroadcastListArgs = {
  page: number;
  search: string;
  sort: BroadcastSort;
  /** The date range (local days of the Scheduled time in `tz`, both included); '' for no bound. */
  from?: string;
  to?: string;
  tz?: string;
  /** The selected account: it only keys the cache (the base query sends it as X-WABA-ID). */
  wabaId: string | null;
};

/** A report's filter as GET /broadcast/{id}/recipients/ (and its CSV) take it: only the filters in use. */
export function reportFilterParams(
  outcome: RetargetOutcome | null,
  replied?: boolean,
  clicked?: boolean | null,
): Record<string, string> {
  return {
    ...(outcome ? { outcome } : {}),
    ...(replied ? { replied: 'true' } : {}),
    ...(clicked === true || clicked === false ? { clicked: String(clicked) } : {}),
  };
}

/** The history's date range as the server takes it: only the bounds given, with the zone when there is one. */
export function historyRange({ from, to, tz }: { from?: string; to?: string; tz?: string }) {
  return from || to ? { ...(from ? { from } : {}), ...(to ? { to } : {}), ...(tz ? { tz } : {}) } : {};
}

/**
 * Broadcast calls, plus this feature's own reads of templates, tags and contacts (features do not
 * import each other, so these are separate endpoints over the same server calls).
 */
export const broadcastsApi = api.enhanceEndpoints({ addTagTypes: ['Broadcasts'] }).injectEndpoints({
  endpoints: (build) => ({
    /** GET /broadcast/create/: one page of the account's broadcasts and the summary totals. */
    getBroadcasts: build.query<BroadcastPage, BroadcastListArgs>({
      query: ({ page, search, sort, from, to, tz }) => ({
        url: '/broadcast/create/',
        params: { page, sort, ...(search ? { search } : {}), ...historyRange({ from, to, tz }) },
      }),
      transformResponse: toBroadcastPage,
      providesTags: ['Broadcasts'],
    }),
    /** GET /broadcast/{id}/recipients/: one broadcast's delivery report, a page at a time. */
    getBroadcastReport: build.query<
      BroadcastReport,
      {
        id: number;
        page: number;
        /** One outcome, or 'not_read' (sent or delivered, not read). */
        outcome: RetargetOutcome | null;
        /** Only the recipients who replied (the Replied filter); absent or false: everyone. */
        replied?: boolean;
        /** Only those who clicked the tracked link (true) or did not (false); absent or null: everyone. */
        clicked?: boolean | null;
        wabaId: string | null;
      }
    >({
      query: ({ id, page, outcome, replied, clicked }) => ({
        url: `/broadcast/${id}/recipients/`,
        params: { page, ...reportFilterParams(outcome, replied, clicked) },
      }),
      providesTags: ['Broadcasts'],
    }),
    /** POST /broadcast/create/ */
    createBroadcast: build.mutation<BroadcastCreateResponse, BroadcastCreateRequest>({
      query: (body) => ({ url: '/broadcast/create/', method: 'POST', body }),
      invalidatesTags: ['Broadcasts'],
    }),
    /**
     * POST /broadcast/estimate/: the recipients, what is left of the 24-hour messaging limit and the +1 numbers,
     * for the form as it stands. A read, so a query: RTK Query keys it by the body and reuses an answer.
     */
    getBroadcastEstimate: build.query<
      BroadcastEstimateResponse,
      { body: BroadcastEstimateRequest; wabaId: string | null }
    >({
      query: ({ body }) => ({ url: '/broadcast/estimate/', method: 'POST', body }),
      providesTags: ['Broadcasts'],
    }),
    /** POST /broadcast/{id}/{pause|resume|cancel}/; a resume may set a new spend cap (null removes it). */
    broadcastAction: build.mutation<
      BroadcastActionResponse,
      { id: number; action: BroadcastAction; spendCap?: number | null }
    >({
      query: ({ id, action, spendCap }) => ({
        url: `/broadcast/${id}/${action}/`,
        method: 'POST',
        ...(spendCap === undefined ? {} : { body: { spend_cap: spendCap } }),
      }),
      invalidatesTags: ['Broadcasts'],
    }),
    /** GET /meta/templates/: the templates to choose from (the page filters the APPROVED ones). */
    getBroadcastTemplates: build.query<TemplateListResponse, string | null>({
      query: () => ({ url: '/meta/templates/', params: { page_size: 100, sort: 'name' } }),
    }),
    /** GET /meta/templates/{id}/: the chosen template's components and variables, for the preview. */
    getBroadcastTemplate: build.query<TemplateDetail, number>({
      query: (id) => `/meta/templates/${id}/`,
    }),
    /** GET /recipient/tags/: the tags to filter by, with their contact counts. */
    getBroadcastTags: build.query<Tag[], string | null>({
      query: () => '/recipient/tags/',
      providesTags: ['Tags'],
    }),
    /** GET /meta/phone/whatsapp/: the account's numbers, for 'Send from'. */
    getBroadcastNumbers: build.query<PhoneNumber[], string | null>({
      query: () => '/meta/phone/whatsapp/',
      transformResponse: (answer: { data: PhoneNumber[] }) => answer.data,
      providesTags: ['PhoneNumbers'],
    }),
    /** GET /recipient/create/ first page: the contact total ('All Contacts') and the preview's first contact. */
    getBroadcastContacts: build.query<ContactList, string | null>({
      query: () => ({ url: '/recipient/create/', params: { page: 1, page_size: 10 } }),
      providesTags: ['Contacts'],
    }),
    /**
     * GET /recipient/create/?segment_id=: a segment's first member who has not opted out, the preview's contact
     * in the Segment mode (the list's smallest page is 10).
     */
    getSegmentFirstContact: build.query<ContactList, number>({
      query: (segmentId) => ({
        url: '/recipient/create/',
        params: { page: 1, page_size: 10, segment_id: segmentId, opted_out: 'false' },
      }),
      providesTags: ['Contacts'],
    }),
  }),
});

export const {
  useGetBroadcastsQuery,
  useGetBroadcastReportQuery,
  useCreateBroadcastMutation,
  useBroadcastActionMutation,
  useGetBroadcastEstimateQuery,
  useGetBroadcastNumbersQuery,
  useGetBroadcastTemplatesQuery,
  useGetBroadcastTemplateQuery,
  useGetBroadcastTagsQuery,
  useGetBroadcastContactsQuery,
  useGetSegmentFirstContactQuery,
} = broadcastsApi;
