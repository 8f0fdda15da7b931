import { z } from 'zod';

/** One market's line of a cost: its messages, the rate each was priced at and their cost. */
export const MarketCostSchema = z
  .object({
    /** Meta's pricing market ("India", "North America", "Rest of Africa", "Other"). */
    market: z.string(),
    messages: z.number().int(),
    /** USD per message; null when the messages span dates with different rates. */
    rate: z.number().nullable(),
    cost: z.number(),
  })
  .meta({ id: 'MarketCost' });

/** POST /pricing/estimate/: what a broadcast to this audience would cost at today's rates. */
export const CostEstimateResponseSchema = z
  .object({
    currency: z.literal('USD'),
    /** The template's category as priced (marketing, utility, authentication); null without a template. */
    category: z.string().nullable(),
    recipients: z.number().int(),
    /**
     * recipients × the rate of their market; null without a template (no category to price). With a max price,
     * recipients × that price: the most Meta would charge.
     */
    total: z.number().nullable(),
    /** The template's maximum price in USD per delivered message (Meta charges it or less); null: the rate card. */
    max_price: z.number().nullable().optional(),
    markets: z.array(MarketCostSchema),
    /** The rate card: where its figures come from and the date of the rates used. */
    rate_card: z.object({ source: z.string(), effective_from: z.string().nullable() }),
  })
  .meta({ id: 'CostEstimateResponse' });

/** A broadcast's cost from the pricing Meta stated in its status webhooks. */
export const BroadcastCostSchema = z
  .object({
    broadcast_id: z.number().int(),
    /** The broadcast's name, as the history shows it. */
    name: z.string(),
    currency: z.literal('USD'),
    /** Messages Meta said are billable, and those it said are free (free_customer_service, free_entry_point…). */
    billable: z.number().int(),
    free: z.number().int(),
    /** Messages WhatsApp has (sent, delivered, read) whose statuses stated no pricing yet: not in the cost. */
    unpriced: z.number().int(),
    /**
     * The billable messages priced at the rate of their market, category and day, or at what Meta said it
     * charged where a status stated it (a marketing message with a max price).
     */
    cost: z.number(),
    markets: z.array(MarketCostSchema),
  })
  .meta({ id: 'BroadcastCost' });

export const BroadcastCostsResponseSchema = z
  .object({ costs: z.array(BroadcastCostSchema) })
  .meta({ id: 'BroadcastCostsResponse' });

export const BroadcastCostsQuerySchema = z.object({
  ids: z
    .string({ message: 'ids must be broadcast ids separated by commas' })
    .regex(/^\d{1,18}(,\d{1,18}){0,99}$/, 'ids must be up to 100 broadcast ids separated by commas')
    .transform((value) => [...new Set(value.split(',').map(Number))]),
});

export type MarketCost = z.infer<typeof MarketCostSchema>;
export type CostEstimateResponse = z.infer<typeof CostEstimateResponseSchema>;
export type BroadcastCost = z.infer<typeof BroadcastCostSchema>;
export type BroadcastCostsResponse = z.infer<typeof BroadcastCostsResponseSchema>;

/**
 * GET /pricing/broadcasts/{id}/meta/: Meta's own figure for a broadcast, read from its
 * pricing_analytics for the broadcast's sending number over the broadcast's time range (decision 053). Meta's
 * analytics are per number and time bucket, not per broadcast: `overlapping` says what else Herald sent then.
 * Before the broadcast has sent anything there is no range: Meta is not asked and the figures are null.
 */
export const MetaBroadcastFigureSchema = z
  .object({
    broadcast_id: z.number().int(),
    /** The WABA's currency as Meta states it (its cost is in it); null when Meta named none. */
    currency: z.string().nullable(),
    /** Billable (REGULAR) messages Meta counts delivered by the number in the range. */
    volume: z.number().int().nullable(),
    /** Meta's approximate charge for them; null when Meta gives no cost (businesses billed through a partner). */
    cost: z.number().nullable(),
    /** The range asked (ISO 8601), widened to whole buckets of the granularity. */
    range: z
      .object({
        start: z.string(),
        end: z.string(),
        granularity: z.enum(['HALF_HOUR', 'DAILY']),
      })
      .nullable(),
    /** The broadcast is still sending: the range ends now, and Meta's analytics trail its deliveries. */
    still_sending: z.boolean(),
    /** This broadcast's billable messages Herald saw delivered in the range (Meta bills delivered ones only). */
    delivered_billable: z.number().int(),
    /** Messages of other broadcasts of the same number Herald saw delivered in the range: Meta counts them too. */
    overlapping: z.object({ broadcasts: z.number().int(), messages: z.number().int() }),
  })
  .meta({ id: 'MetaBroadcastFigure' });

export type MetaBroadcastFigure = z.infer<typeof MetaBroadcastFigureSchema>;
