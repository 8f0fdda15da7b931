import type {
  LoginRequest,
  LoginResponse,
  PasswordResetRequest,
  SignupRequest,
  SignupResponse,
} from '@herald/contracts';
import { api } from '../../lib/api';

type MessageAnswer = { message: string };

/** Spec §7: the auth calls. Sign-in, sign-up and password reset are made signed out (`public`). */
export const authApi = api.injectEndpoints({
  endpoints: (build) => ({
    login: build.mutation<LoginResponse, LoginRequest>({
      query: (body) => ({ url: '/api/auth/login/', method: 'POST', body }),
      extraOptions: { public: true },
    }),
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

export const { useLoginMutation, useLogoutMutation, useSignupMutation, useResetPasswordMutation } = authApi;
