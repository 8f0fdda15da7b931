import { createSlice } from '@reduxjs/toolkit';
import type { PayloadAction } from '@reduxjs/toolkit';

/** The session, persisted in local storage under 'auth'. */
export type AuthState = {
  accessToken: string | null;
  refreshToken: string | null;
};

export type AuthTokens = {
  accessToken: string;
  refreshToken: string;
};

export const initialAuthState: AuthState = { accessToken: null, refreshToken: null };

const authSlice = createSlice({
  name: 'auth',
  initialState: initialAuthState,
  reducers: {
    /** Sign-in: stores both tokens. */
    setCredentials(state, action: PayloadAction<AuthTokens>) {
      state.accessToken = action.payload.accessToken;
      state.refreshToken = action.payload.refreshToken;
    },
    /** Token refresh: replaces both tokens. */
    updateTokens(state, action: PayloadAction<AuthTokens>) {
      state.accessToken = action.payload.accessToken;
      state.refreshToken = action.payload.refreshToken;
    },
    logout(state) {
      state.accessToken = null;
      state.refreshToken = null;
    },
  },
});

export const { setCredentials, updateTokens, logout } = authSlice.actions;
export const authReducer = authSlice.reducer;
