import type { SignupConfigResponse } from '@herald/contracts';
import { api } from './api';

/** GET /api/auth/signup-config/ (public): where the provider SDK is and which ids and origins to use. */
export const signupConfigApi = api.injectEndpoints({
  endpoints: (build) => ({
    getSignupConfig: build.query<SignupConfigResponse, void>({
      query: () => '/api/auth/signup-config/',
      extraOptions: { public: true },
    }),
  }),
});
