import { LinkSettingsResponseSchema, type LinkSettingsResponse } from '@herald/contracts';
import { api } from './api';

/**
 * GET /broadcast/links/: what a template's URL button holds to be a tracked link (decision 091). Shared plumbing:
 * the template editor offers it and New broadcast recognises a template that has it. The argument is the selected
 * account's waba_id: it only keys the cache (the base query sends X-WABA-ID).
 */
export const linkSettingsApi = api.injectEndpoints({
  endpoints: (build) => ({
    // Checked against the contract: an answer that is not link settings (an older server, a proxy's page) reads
    // as null, and the screens offer no tracked link rather than a broken one.
    getLinkSettings: build.query<LinkSettingsResponse | null, string | null>({
      query: () => '/broadcast/links/',
      transformResponse: (answer: unknown) => {
        const parsed = LinkSettingsResponseSchema.safeParse(answer);
        return parsed.success ? parsed.data : null;
      },
    }),
  }),
});

export const { useGetLinkSettingsQuery } = linkSettingsApi;
