import { mmApiStatusResponseSchema, type MmApiStatusResponse } from '@herald/contracts';
import { api } from './api';

/**
 * GET /marketing-messages/ and POST /marketing-messages/onboarding/: the selected account's Marketing Messages
 * API onboarding as Meta says it, and asking Meta to invite the portfolio's admins. The argument is the selected
 * account's waba_id: it only keys the cache (the base query sends X-WABA-ID).
 */
export const marketingMessagesApi = api
  .enhanceEndpoints({ addTagTypes: ['MarketingMessages'] })
  .injectEndpoints({
    endpoints: (build) => ({
      getMarketingMessages: build.query<MmApiStatusResponse | null, string>({
        query: () => '/marketing-messages/',
        transformResponse: (answer: unknown) => {
          const parsed = mmApiStatusResponseSchema.safeParse(answer);
          return parsed.success ? parsed.data : null;
        },
        providesTags: ['MarketingMessages'],
      }),
      startMarketingMessagesOnboarding: build.mutation<MmApiStatusResponse, string>({
        query: () => ({ url: '/marketing-messages/onboarding/', method: 'POST' }),
        async onQueryStarted(wabaId, { dispatch, queryFulfilled }) {
          const { data } = await queryFulfilled.catch(() => ({ data: null }));
          if (data) dispatch(marketingMessagesApi.util.upsertQueryData('getMarketingMessages', wabaId, data));
        },
      }),
    }),
  });

export const { useGetMarketingMessagesQuery, useStartMarketingMessagesOnboardingMutation } =
  marketingMessagesApi;
