import {
  accountSettingsResponseSchema,
  type AccountSettingsResponse,
  type AccountSettingsUpdate,
} from '@herald/contracts';
import { useSelector } from 'react-redux';
import type { WabaState } from './waba-slice';
import { api } from './api';

/**
 * GET and PUT /settings/: the selected account's settings. Shared plumbing, because Settings
 * edits them and other screens follow them (the create-template page prefills the default language).
 * The argument is the selected account's waba_id: it only keys the cache (the base query sends X-WABA-ID).
 */
export const accountSettingsApi = api
  .enhanceEndpoints({ addTagTypes: ['AccountSettings', 'Header'] })
  .injectEndpoints({
    endpoints: (build) => ({
      // Checked against the contract: an answer that is not settings (an older server) reads as "unknown",
      // and screens fall back to the defaults instead of breaking.
      getAccountSettings: build.query<AccountSettingsResponse | null, string>({
        query: () => '/settings/',
        transformResponse: (answer: unknown) => {
          const parsed = accountSettingsResponseSchema.safeParse(answer);
          return parsed.success ? parsed.data : null;
        },
        providesTags: ['AccountSettings'],
      }),
      saveAccountSettings: build.mutation<
        AccountSettingsResponse,
        { wabaId: string; update: AccountSettingsUpdate }
      >({
        query: ({ update }) => ({ url: '/settings/', method: 'PUT', body: update }),
        // The answer is the whole stored settings: it becomes the cached read at once (no second request),
        // and the header reads again, since it carries the theme and the Beta badge.
        async onQueryStarted({ wabaId }, { dispatch, queryFulfilled }) {
          const { data } = await queryFulfilled.catch(() => ({ data: null }));
          if (data) {
            dispatch(accountSettingsApi.util.upsertQueryData('getAccountSettings', wabaId, data));
          }
        },
        invalidatesTags: (result) => (result ? ['Header'] : []),
      }),
    }),
  });

export const { useGetAccountSettingsQuery, useSaveAccountSettingsMutation } = accountSettingsApi;

/** The selected account's waba_id, or null when the user has none (then no settings are read). */
export function useSelectedWabaId(): string | null {
  return useSelector((state: { waba: WabaState }) => state.waba.selectedWabaAccount?.waba_id ?? null);
}

/**
 * The name customers see at the top of the account's chats: its first number's display name, or null when it
 * has no number with one yet.
 */
export function useSelectedSenderName(): string | null {
  return useSelector(
    (state: { waba: WabaState }) => state.waba.selectedWabaAccount?.details[0]?.display_name || null,
  );
}

/** The selected account's settings (null until read, or when there is no account or no valid answer). */
export function useSelectedAccountSettings() {
  const wabaId = useSelectedWabaId();
  const query = useGetAccountSettingsQuery(wabaId ?? '', { skip: wabaId === null });
  return { wabaId, ...query };
}
