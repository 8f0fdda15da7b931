import type { BroadcastTestRequest, BroadcastTestResponse } from '@herald/contracts';
import { api } from '../../lib/api';

/** New broadcast's own calls for sending safely: the test send and the preview's header media. */
export const sendingApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** POST /broadcast/test/: one message to one number; not a broadcast, so no list changes. */
    sendTestMessage: build.mutation<BroadcastTestResponse, BroadcastTestRequest>({
      query: (body) => ({ url: '/broadcast/test/', method: 'POST', body }),
    }),
    /**
     * The template's stored header media (`media_url`, same origin, needs the bearer header) as an object URL
     * for the preview's <img>, revoked when the cache entry goes.
     */
    getBroadcastTemplateMedia: build.query<string, string>({
      query: (url) => ({
        url,
        responseHandler: async (response) =>
          response.ok ? URL.createObjectURL(await response.blob()) : response.text(),
      }),
      async onCacheEntryAdded(_url, { cacheDataLoaded, cacheEntryRemoved }) {
        let objectUrl: string | null = null;
        try {
          objectUrl = (await cacheDataLoaded).data;
        } catch {
          // The entry went before the media arrived: nothing to revoke.
        }
        await cacheEntryRemoved;
        if (objectUrl) URL.revokeObjectURL(objectUrl);
      },
    }),
  }),
});

export const { useSendTestMessageMutation, useGetBroadcastTemplateMediaQuery } = sendingApi;
