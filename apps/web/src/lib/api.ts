import { createApi } from '@reduxjs/toolkit/query/react';
import { baseQueryWithReauth } from './base-query';

/**
 * The app's one RTK Query API. Features add their calls with `api.injectEndpoints` in their own
 * `api.ts`, so every request goes through the same base query.
 */
export const api = createApi({
  reducerPath: 'api',
  baseQuery: baseQueryWithReauth,
  tagTypes: ['Wabas', 'PhoneNumbers', 'Contacts', 'Tags'],
  endpoints: () => ({}),
});
