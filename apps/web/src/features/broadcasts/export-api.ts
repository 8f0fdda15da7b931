import type { BroadcastSort } from './api';
import { historyRange, reportFilterParams } from './api';
import { api } from '../../lib/api';
import { downloadHandler, type Download } from '../../lib/save-download';
import type { RetargetOutcome } from '@herald/contracts';

/**
 * The history's and a report's Export, with the session's headers. Mutations, so every click downloads
 * afresh (a query would answer a second click from its cache with an object URL already revoked).
 */
export const broadcastExportApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** GET /broadcast/export.csv: the list as the history shows it (date range, search, sort). */
    exportBroadcasts: build.mutation<
      Download,
      { search: string; sort: BroadcastSort; from: string; to: string; tz: string }
    >({
      query: ({ search, sort, from, to, tz }) => ({
        url: '/broadcast/export.csv',
        params: { sort, ...(search ? { search } : {}), ...historyRange({ from, to, tz }) },
        responseHandler: downloadHandler('herald-broadcasts.csv'),
      }),
    }),
    /** GET /broadcast/{id}/recipients/export.csv: the report's recipients under its filter. */
    exportBroadcastReport: build.mutation<
      Download,
      { id: number; outcome: RetargetOutcome | null; replied: boolean; clicked?: boolean | null }
    >({
      query: ({ id, outcome, replied, clicked }) => ({
        url: `/broadcast/${id}/recipients/export.csv`,
        params: reportFilterParams(outcome, replied, clicked),
        responseHandler: downloadHandler(`herald-report-${id}.csv`),
      }),
    }),
  }),
});

export const { useExportBroadcastsMutation, useExportBroadcastReportMutation } = broadcastExportApi;
