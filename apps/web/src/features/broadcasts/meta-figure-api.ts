import type { MetaBroadcastFigure } from '@herald/contracts';
import { api } from '../../lib/api';

/** Meta's own figure for a broadcast (decision 053), beside Herald's cost on the report. */
export const metaFigureApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** GET /pricing/broadcasts/{id}/meta/: Meta's pricing_analytics for the broadcast's number and range. */
    getMetaBroadcastFigure: build.query<
      MetaBroadcastFigure,
      /** `version` is not sent: it changes with Herald's figures, so Meta is asked again with them. */
      { id: number; wabaId: string | null; version: string }
    >({
      query: ({ id }) => ({ url: `/pricing/broadcasts/${id}/meta/` }),
    }),
  }),
});

export const { useGetMetaBroadcastFigureQuery } = metaFigureApi;
