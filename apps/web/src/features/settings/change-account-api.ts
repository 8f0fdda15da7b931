import type { AccountChangeRequest, AccountChangeResponse } from '@herald/contracts';
import { api } from '../../lib/api';

/** PUT /api/auth/account/: Account Settings' new e-mail and/or password (the current password required). */
export const changeAccountApi = api.injectEndpoints({
  endpoints: (build) => ({
    changeAccount: build.mutation<AccountChangeResponse, AccountChangeRequest>({
      query: (body) => ({ url: '/api/auth/account/', method: 'PUT', body }),
    }),
  }),
});

export const { useChangeAccountMutation } = changeAccountApi;
