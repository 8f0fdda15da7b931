import type {
  TemplateClicksResponse,
  TemplateDetail,
  TemplateListItem,
  TemplateListResponse,
  TemplateSort,
  TemplateSyncResponse,
} from '@herald/contracts';
import { TemplateClicksResponseSchema } from '@herald/contracts';
import { api } from '../../lib/api';

type TemplateListArgs = {
  page: number;
  pageSize: number;
  search: string;
  sort: TemplateSort;
  /** The selected account: it only keys the cache (the base query sends it as X-WABA-ID). */
  wabaId: string | null;
};

/** What POST/PUT /meta/templates/ take: the multipart body built by `templateFormData`. */
type TemplateSaveArgs = { body: FormData };

/** DELETE /meta/templates/: Meta's id, or Herald's id as a string for a draft never sent. */
type TemplateDeleteArgs = { template_id: string; template_name: string };

/** Template calls. */
export const templatesApi = api.enhanceEndpoints({ addTagTypes: ['Templates'] }).injectEndpoints({
  endpoints: (build) => ({
    /** GET /meta/templates/: one page of the account's templates. */
    getTemplates: build.query<TemplateListResponse, TemplateListArgs>({
      query: ({ page, pageSize, search, sort }) => ({
        url: '/meta/templates/',
        params: { page, page_size: pageSize, sort, ...(search ? { search } : {}) },
      }),
      providesTags: ['Templates'],
    }),
    /** GET /meta/templates/{id}/: one template as read for edit (Herald's numeric id). */
    getTemplate: build.query<TemplateDetail, string>({
      query: (id) => `/meta/templates/${encodeURIComponent(id)}/`,
      providesTags: (_result, _error, id) => [{ type: 'Templates', id }],
    }),
    /**
     * The stored header media (`media_url`, same origin, needs the bearer header): answered as an object URL
     * for <img>/<video>, revoked when the cache entry goes.
     */
    getTemplateMedia: build.query<string, string>({
      query: (url) => ({
        url,
        responseHandler: async (response) =>
          response.ok ? URL.createObjectURL(await response.blob()) : response.text(),
      }),
      async onCacheEntryAdded(_url, { cacheDataLoaded, cacheEntryRemoved }) {
        let objectUrl: string | null = null;
        try {
          objectUrl = (await cacheDataLoaded).data;
        } catch {
          // The entry went before the media arrived: nothing to revoke.
        }
        await cacheEntryRemoved;
        if (objectUrl) URL.revokeObjectURL(objectUrl);
      },
    }),
    /** POST /meta/templates/ (multipart template_data + header_file). */
    createTemplate: build.mutation<TemplateListItem, TemplateSaveArgs>({
      query: ({ body }) => ({ url: '/meta/templates/', method: 'POST', body }),
      invalidatesTags: ['Templates'],
    }),
    /** PUT /meta/templates/{id}/ (multipart; header_file only when a new file was chosen). */
    updateTemplate: build.mutation<TemplateListItem, TemplateSaveArgs & { id: string }>({
      query: ({ id, body }) => ({ url: `/meta/templates/${encodeURIComponent(id)}/`, method: 'PUT', body }),
      invalidatesTags: ['Templates'],
    }),
    /** POST /meta/templates/{id}/submit/: sends a DRAFT for review. */
    submitTemplate: build.mutation<TemplateListItem, number>({
      query: (id) => ({ url: `/meta/templates/${id}/submit/`, method: 'POST' }),
      invalidatesTags: ['Templates'],
    }),
    /** POST /meta/templates/sync/: 'Refresh from Meta', every template's review state read again. */
    syncTemplates: build.mutation<TemplateSyncResponse, void>({
      query: () => ({ url: '/meta/templates/sync/', method: 'POST' }),
      invalidatesTags: ['Templates'],
    }),
    /** DELETE /meta/templates/ */
    deleteTemplate: build.mutation<unknown, TemplateDeleteArgs>({
      query: (body) => ({ url: '/meta/templates/', method: 'DELETE', body }),
      invalidatesTags: ['Templates'],
    }),
    /** GET /recipient/cols: the customer columns a dynamic variable can bind to. */
    /** The template's clicks over 90 days: WhatsApp's count of button taps beside Herald's tracked links. */
    getTemplateClicks: build.query<TemplateClicksResponse | null, string>({
      query: (id) => `/meta/templates/${encodeURIComponent(id)}/clicks/`,
      // An answer that is not the contract's shape shows as unreadable, never as a crash.
      transformResponse: (answer: unknown) => {
        const parsed = TemplateClicksResponseSchema.safeParse(answer);
        return parsed.success ? parsed.data : null;
      },
    }),
    getTemplateCustomerColumns: build.query<string[], string | null>({
      query: () => '/recipient/cols',
      providesTags: ['Contacts'],
    }),
  }),
});

export const {
  useGetTemplatesQuery,
  useGetTemplateQuery,
  useGetTemplateMediaQuery,
  useCreateTemplateMutation,
  useUpdateTemplateMutation,
  useSubmitTemplateMutation,
  useSyncTemplatesMutation,
  useDeleteTemplateMutation,
  useGetTemplateCustomerColumnsQuery,
  useGetTemplateClicksQuery,
} = templatesApi;
