import type {
  BroadcastCost,
  BroadcastCostsResponse,
  BroadcastEstimateRequest,
  CostEstimateResponse,
} from '@herald/contracts';
import { CostEstimateResponseSchema } from '@herald/contracts';
import { api } from '../../lib/api';

/** What broadcasts cost: the estimate before sending and the cost from Meta's stated pricing after. */
export const costApi = api.enhanceEndpoints({ addTagTypes: ['Broadcasts'] }).injectEndpoints({
  endpoints: (build) => ({
    /** POST /pricing/estimate/: the audience by market × today's rate for the template's category. */
    getCostEstimate: build.query<
      CostEstimateResponse | null,
      { body: BroadcastEstimateRequest; wabaId: string | null }
    >({
      query: ({ body }) => ({ url: '/pricing/estimate/', method: 'POST', body }),
      // An answer that is not the contract's shape reads as no estimate, never as a crash of the page.
      transformResponse: (answer: unknown) => {
        const parsed = CostEstimateResponseSchema.safeParse(answer);
        return parsed.success ? parsed.data : null;
      },
      providesTags: ['Broadcasts'],
    }),
    /** GET /pricing/broadcasts/?ids=: each broadcast's billable and free messages and their cost. */
    getBroadcastCosts: build.query<
      BroadcastCost[],
      /** `version` is not sent: it changes with the figures shown, so the costs are read again with them. */
      { ids: number[]; wabaId: string | null; version?: string }
    >({
      query: ({ ids }) => ({ url: '/pricing/broadcasts/', params: { ids: ids.join(',') } }),
      transformResponse: (answer: BroadcastCostsResponse) => answer.costs ?? [],
      providesTags: ['Broadcasts'],
    }),
  }),
});

export const { useGetCostEstimateQuery, useGetBroadcastCostsQuery } = costApi;

/** US dollars as Meta's rate card writes them: cents for sums of a dollar or more, else up to 4 decimals. */
export function formatUsd(amount: number): string {
  return new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: 2,
    maximumFractionDigits: Math.abs(amount) >= 1 || amount === 0 ? 2 : 4,
  }).format(amount);
}
