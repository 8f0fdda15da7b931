import type { ConnectAccountRequest } from '@herald/contracts';
import type { WabaAccount } from '../../lib/waba-slice';
import { setWabaAccounts } from '../../lib/waba-slice';
import { api } from '../../lib/api';

/** The account list and "Connect New Account". */
export const accountsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** GET /api/auth/wabas/: the signed-in user's accounts; a fresh list replaces the stored one. */
    getWabas: build.query<{ wabas: WabaAccount[] }, void>({
      query: () => '/api/auth/wabas/',
      providesTags: ['Wabas'],
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          dispatch(setWabaAccounts(data.wabas));
        } catch {
          // The stored list stays as it was; the screen shows it.
        }
      },
    }),
    /** PUT /api/auth/facebook/callback/: link a further account to the signed-in user. */
    connectAccount: build.mutation<{ message: string }, ConnectAccountRequest>({
      query: (body) => ({ url: '/api/auth/facebook/callback/', method: 'PUT', body }),
      invalidatesTags: ['Wabas', 'PhoneNumbers'],
    }),
  }),
});

export const { useGetWabasQuery, useConnectAccountMutation } = accountsApi;
