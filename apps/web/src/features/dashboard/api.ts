import {
  DashboardHeaderResponseSchema,
  type DashboardHeaderResponse,
  type DashboardResponse,
} from '@herald/contracts';
import { api } from '../../lib/api';

/** The range the page asks for: local days (both included) in the user's time zone. */
export type DashboardArgs = {
  from: string;
  to: string;
  tz: string;
  /** The selected account: it only keys the cache (the base query sends it as X-WABA-ID). */
  wabaId: string | null;
};

/** A downloaded CSV: an object URL for an <a download>, and the file name the server gave. */
export type DashboardExport = { url: string; filename: string };

const FILENAME = /filename="([^"]+)"/;

/** The Dashboard's figures, its CSV, and the header's contact count and bell. */
export const dashboardApi = api.enhanceEndpoints({ addTagTypes: ['Dashboard', 'Header'] }).injectEndpoints({
  endpoints: (build) => ({
    /** GET /dashboard/: the cards, the days behind the charts, the categories and Recent Activity. */
    getDashboard: build.query<DashboardResponse, DashboardArgs>({
      query: ({ from, to, tz }) => ({ url: '/dashboard/', params: { from, to, tz } }),
      providesTags: ['Dashboard', 'Contacts'],
    }),
    /**
     * GET /dashboard/export.csv with the session's headers: a mutation, so every click downloads afresh
     * (a query would answer a second click from its cache with an object URL already revoked).
     */
    exportDashboard: build.mutation<DashboardExport, Omit<DashboardArgs, 'wabaId'>>({
      query: ({ from, to, tz }) => ({
        url: '/dashboard/export.csv',
        params: { from, to, tz },
        responseHandler: async (response) => {
          if (!response.ok) return response.text();
          const filename =
            FILENAME.exec(response.headers.get('content-disposition') ?? '')?.[1] ??
            `herald-dashboard-${from}-to-${to}.csv`;
          return { url: URL.createObjectURL(await response.blob()), filename };
        },
      }),
    }),
    /** GET /dashboard/header: the Customers badge and the bell's events with their unread count. */
    // Checked against the contract: the header is on every screen, so an answer it cannot read (an older
    // server, a proxy's page) shows no badge rather than breaking every page. Null then.
    getDashboardHeader: build.query<DashboardHeaderResponse | null, string>({
      query: () => '/dashboard/header',
      transformResponse: (answer: unknown) => {
        const parsed = DashboardHeaderResponseSchema.safeParse(answer);
        return parsed.success ? parsed.data : null;
      },
      // 'Contacts': every add, edit, delete and import of a contact changes the Customers badge.
      providesTags: ['Header', 'Contacts'],
    }),
    /** POST /dashboard/header/seen: the bell was opened, everything shown is seen. */
    markHeaderSeen: build.mutation<{ unread: number }, { up_to?: string }>({
      query: (body) => ({ url: '/dashboard/header/seen', method: 'POST', body }),
      invalidatesTags: ['Header'],
    }),
  }),
});

export const {
  useGetDashboardQuery,
  useExportDashboardMutation,
  useGetDashboardHeaderQuery,
  useMarkHeaderSeenMutation,
} = dashboardApi;
