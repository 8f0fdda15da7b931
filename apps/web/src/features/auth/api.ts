import type { PasswordResetRequest, SignupRequest, SignupResponse } from '@herald/contracts';
import { api } from '../../lib/api';

type MessageAnswer = { message: string };

/**
 * The auth calls. Sign-up and password reset are made signed out (`public`). Sign-in is a plain fetch
 * (./sign-in-request), so the first screen does not load this query layer.
 */
export const authApi = api.injectEndpoints({
  endpoints: (build) => ({
    logout: build.mutation<MessageAnswer, void>({
      query: () => ({ url: '/api/auth/logout/', method: 'POST' }),
    }),
    signup: build.mutation<SignupResponse, SignupRequest>({
      query: (body) => ({ url: '/api/auth/facebook/callback/', method: 'POST', body }),
      extraOptions: { public: true },
    }),
    resetPassword: build.mutation<MessageAnswer, PasswordResetRequest>({
      query: (body) => ({ url: '/api/auth/password/reset/', method: 'POST', body }),
      extraOptions: { public: true },
    }),
  }),
});

export const { useLogoutMutation, useSignupMutation, useResetPasswordMutation } = authApi;
