import { skipToken } from '@reduxjs/toolkit/query';
import { formatMaxPrice, MAX_PRICE, parseSpendCap } from '@herald/contracts';
import { FormField } from '../../../components/form-field';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { estimateRequest, type BroadcastFormState } from '../broadcast-form';
import { formatUsd, useGetCostEstimateQuery } from '../cost-api';
import { formatCount } from '../format';
import { ESTIMATE_DEBOUNCE_MS } from '../use-broadcast-estimate';

type CostEstimateProps = {
  state: BroadcastFormState;
  wabaId: string | null;
  /** The optional spend cap as typed (state.spendCap is what is estimated against). */
  onSpendCap: (spendCap: string) => void;
  spendCapError?: string;
};

/** A max price in dollars per message, with every decimal Meta's bid can carry. */
const perMessage = (dollars: number) => formatMaxPrice(Math.round(dollars * MAX_PRICE.bidAmountPerDollar));

/** Said before Send when the estimate is over the cap: the broadcast may still go, and will pause at the cap. */
export function overCapLine(total: number, cap: number): string {
  return `The estimate (${formatUsd(total)}) is over your spend cap (${formatUsd(cap)}): the broadcast will pause before its cost passes the cap.`;
}

/**
 * New broadcast's cost before sending: the recipients by market × today's rate for the
 * template's category, asked again (debounced) whenever the audience, percentage or template changes, with the
 * breakdown by market on demand. Meta charges delivered messages only, so this is the most it would cost.
 */
export function CostEstimate({ state, wabaId, onSpendCap, spendCapError }: CostEstimateProps) {
  const body = useDebouncedValue(estimateRequest(state, state.leaveOutUsNumbers), ESTIMATE_DEBOUNCE_MS);
  const query = useGetCostEstimateQuery(body ? { body, wabaId } : skipToken);
  const estimate = query.data;
  const cap = parseSpendCap(state.spendCap);
  const capField = (
    <FormField
      label="Spend cap (USD, optional)"
      inputMode="decimal"
      placeholder="No cap"
      value={state.spendCap}
      onChange={(event) => onSpendCap(event.target.value)}
      error={spendCapError}
      hint="Sending pauses before the broadcast's cost would pass it, counting every message as billable."
      className="max-w-xs"
    />
  );
  if (!body) return capField;
  const overCap =
    estimate && estimate.total !== null && cap.ok && cap.value !== null && estimate.total > cap.value
      ? overCapLine(estimate.total, cap.value)
      : null;

  const line = !estimate
    ? query.isFetching || query.isUninitialized
      ? 'Estimating the cost...'
      : 'The cost could not be estimated now.'
    : estimate.total === null
      ? 'Choose a template to estimate the cost.'
      : `Estimated cost: ${estimate.max_price ? 'at most ' : ''}${formatUsd(estimate.total)} for ${formatCount(
          estimate.recipients,
        )} ${estimate.recipients === 1 ? 'recipient' : 'recipients'} ${
          estimate.max_price
            ? `at the template's maximum price (${perMessage(estimate.max_price)} per delivered message)`
            : `at ${estimate.category} rates`
        }`;

  return (
    <section
      aria-label="Estimated cost"
      className="space-y-2 rounded-lg bg-slate-50 p-3 text-sm ring-1 ring-slate-200 ring-inset"
    >
      <output aria-label="Estimated cost" className="block font-medium text-slate-700">
        {line}
      </output>
      {overCap ? (
        <p role="note" className="font-medium text-amber-800">
          {overCap}
        </p>
      ) : null}
      {estimate && estimate.total !== null && estimate.markets.length > 0 ? (
        <details>
          <summary className="cursor-pointer text-emerald-700">Cost by market</summary>
          <table className="mt-2 w-full text-left text-sm">
            <thead className="text-slate-500">
              <tr>
                <th scope="col" className="py-1 font-medium">
                  Market
                </th>
                <th scope="col" className="py-1 text-right font-medium">
                  Recipients
                </th>
                <th scope="col" className="py-1 text-right font-medium">
                  Rate
                </th>
                <th scope="col" className="py-1 text-right font-medium">
                  Cost
                </th>
              </tr>
            </thead>
            <tbody>
              {estimate.markets.map((market) => (
                <tr key={market.market} className="border-t border-slate-200">
                  <th scope="row" className="py-1 font-normal">
                    {market.market}
                  </th>
                  <td className="py-1 text-right">{formatCount(market.messages)}</td>
                  <td className="py-1 text-right">{market.rate === null ? '—' : formatUsd(market.rate)}</td>
                  <td className="py-1 text-right">{formatUsd(market.cost)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="mt-2 text-slate-500">
            {estimate.max_price
              ? 'Meta charges delivered messages only, at the maximum price or less.'
              : `Meta charges delivered messages only, at its rate card of ${estimate.rate_card.effective_from ?? 'today'}.`}
          </p>
        </details>
      ) : null}
      {capField}
    </section>
  );
}
