import type { PhoneNumber } from '@herald/contracts';
import { api } from '../../lib/api';

/** GET /meta/phone/whatsapp/ lists the numbers of the selected account (X-WABA-ID). */
export const numbersApi = api.injectEndpoints({
  endpoints: (build) => ({
    // The argument is the selected account id: it only keys the cache, so a new selection refetches;
    // the base query sends it as X-WABA-ID.
    getPhoneNumbers: build.query<{ data: PhoneNumber[] }, string | null>({
      query: () => '/meta/phone/whatsapp/',
      providesTags: ['PhoneNumbers'],
    }),
  }),
});

export const { useGetPhoneNumbersQuery } = numbersApi;
