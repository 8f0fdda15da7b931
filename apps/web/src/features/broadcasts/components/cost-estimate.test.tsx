import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ReactElement } from 'react';
import { Provider } from 'react-redux';
import type { BroadcastEstimateRequest, CostEstimateResponse } from '@herald/contracts';
import { json, pathOf, stubFetch } from '../../../test/fetch-stub';
import { renderWithStore } from '../../../test/render-with-store';
import { INITIAL_BROADCAST_FORM, type BroadcastFormState } from '../broadcast-form';
import { withAccount } from '../test/broadcast-fixtures';
import { CostEstimate } from './cost-estimate';

const noop = () => undefined;

// New broadcast's cost line and its breakdown by market, asked again when the form changes.
const answer = (percentage: number, templateId?: number): CostEstimateResponse => {
  const india = Math.round((300 * percentage) / 100);
  const uk = Math.round((200 * percentage) / 100);
  const cost = (n: number, rate: number) => Math.round(n * rate * 1e6) / 1e6;
  return {
    currency: 'USD',
    category: templateId ? 'marketing' : null,
    recipients: india + uk,
    total: templateId ? cost(india, 0.0107) + cost(uk, 0.0529) : null,
    markets: [
      {
        market: 'United Kingdom',
        messages: uk,
        rate: templateId ? 0.0529 : null,
        cost: templateId ? cost(uk, 0.0529) : 0,
      },
      {
        market: 'India',
        messages: india,
        rate: templateId ? 0.0107 : null,
        cost: templateId ? cost(india, 0.0107) : 0,
      },
    ],
    rate_card: {
      source: 'https://developers.facebook.com/docs/whatsapp/pricing',
      effective_from: '2025-07-01',
    },
  };
};

function server() {
  return stubFetch(async (request) => {
    if (pathOf(request) === '/pricing/estimate/' && request.method === 'POST') {
      const body = (await request.json()) as BroadcastEstimateRequest;
      return json(answer(body.recipients?.percentage ?? 100, body.template_id));
    }
    return json({ detail: 'Not found' }, 404);
  });
}

const form = (patch: Partial<BroadcastFormState>): BroadcastFormState => ({
  ...INITIAL_BROADCAST_FORM,
  mode: 'all',
  ...patch,
});
const line = () => screen.getByRole('status', { name: 'Estimated cost' }).textContent;

type Rerender = (ui: ReactElement) => void;
/** RTL's rerender replaces the whole tree: keep the store's Provider around the new one. */
const withStore =
  (rerender: Rerender, store: Parameters<typeof Provider>[0]['store']) => (ui: ReactElement) =>
    rerender(<Provider store={store}>{ui}</Provider>);

describe('CostEstimate', () => {
  it('shows the cost of the audience at the template’s rates, by market on demand, and follows the form', async () => {
    const fetchMock = server();
    const { rerender: rerenderBare, store } = renderWithStore(
      <CostEstimate state={form({ percentage: 100 })} wabaId="w" onSpendCap={noop} />,
      {
        preloadedState: withAccount,
      },
    );
    const rerender = withStore(rerenderBare, store);
    expect(
      await screen.findByText('Choose a template to estimate the cost.', undefined, { timeout: 3000 }),
    ).toBeTruthy();

    rerender(
      <CostEstimate state={form({ percentage: 100, templateId: '1' })} wabaId="w" onSpendCap={noop} />,
    );
    // 300 × 0.0107 + 200 × 0.0529 = 3.21 + 10.58
    expect(
      await screen.findByText('Estimated cost: $13.79 for 500 recipients at marketing rates', undefined, {
        timeout: 3000,
      }),
    ).toBeTruthy();

    fireEvent.click(screen.getByText('Cost by market'));
    const table = screen.getByRole('table');
    const rows = within(table)
      .getAllByRole('row')
      .map((row) => row.textContent);
    expect(rows).toEqual([
      'MarketRecipientsRateCost',
      'United Kingdom200$0.0529$10.58',
      'India300$0.0107$3.21',
    ]);

    // 40 % of the audience: asked again with the new percentage (120 × 0.0107 + 80 × 0.0529 = 5.516).
    rerender(<CostEstimate state={form({ percentage: 40, templateId: '1' })} wabaId="w" onSpendCap={noop} />);
    expect(
      await screen.findByText('Estimated cost: $5.52 for 200 recipients at marketing rates', undefined, {
        timeout: 3000,
      }),
    ).toBeTruthy();
    const bodies = await Promise.all(
      fetchMock
        .requests()
        .filter((r) => pathOf(r) === '/pricing/estimate/')
        .map((r) => r.clone().json() as Promise<BroadcastEstimateRequest>),
    );
    expect(bodies.map((b) => [b.template_id, b.recipients?.percentage])).toEqual([
      [undefined, 100],
      [1, 100],
      [1, 40],
    ]);
    expect(line()).toContain('$5.52');
  });

  it('says so when the estimate cannot be had, and shows nothing without an audience', async () => {
    stubFetch(() => json({ detail: 'Unavailable' }, 503));
    const { rerender: rerenderBare, store } = renderWithStore(
      <CostEstimate state={form({ templateId: '1' })} wabaId="w" onSpendCap={noop} />,
      {
        preloadedState: withAccount,
      },
    );
    const rerender = withStore(rerenderBare, store);
    expect(
      await screen.findByText('The cost could not be estimated now.', undefined, { timeout: 3000 }),
    ).toBeTruthy();
    rerender(
      <CostEstimate
        state={form({ mode: 'filter', tagIds: [], templateId: '1' })}
        wabaId="w"
        onSpendCap={noop}
      />,
    );
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Estimated cost' })).toBeNull());
  });

  it('has the optional spend cap beside the estimate, and says before Send when the estimate is over it', async () => {
    server();
    const typed: string[] = [];
    const { rerender: rerenderBare, store } = renderWithStore(
      <CostEstimate
        state={form({ percentage: 100, templateId: '1', spendCap: '20' })}
        wabaId="w"
        onSpendCap={(value) => typed.push(value)}
      />,
      { preloadedState: withAccount },
    );
    const rerender = withStore(rerenderBare, store);
    await screen.findByText('Estimated cost: $13.79 for 500 recipients at marketing rates', undefined, {
      timeout: 3000,
    });
    const field = screen.getByRole('textbox', { name: 'Spend cap (USD, optional)' });
    fireEvent.change(field, { target: { value: '12.50' } });
    expect(typed).toEqual(['12.50']);
    // $13.79 is within a $20 cap: nothing to say.
    expect(screen.queryByRole('note')).toBeNull();

    rerender(
      <CostEstimate
        state={form({ percentage: 100, templateId: '1', spendCap: '12.50' })}
        wabaId="w"
        onSpendCap={noop}
      />,
    );
    expect(screen.getByRole('note').textContent).toBe(
      'The estimate ($13.79) is over your spend cap ($12.50): the broadcast will pause before its cost passes the cap.',
    );

    // A cap that is not an amount shows the form's message on the field, and no comparison.
    rerender(
      <CostEstimate
        state={form({ percentage: 100, templateId: '1', spendCap: '12.505' })}
        wabaId="w"
        onSpendCap={noop}
        spendCapError="The spend cap must have at most 2 decimals (cents)"
      />,
    );
    expect(screen.queryByRole('note')).toBeNull();
    const invalid = screen.getByRole('textbox', { name: 'Spend cap (USD, optional)' });
    expect(invalid.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('The spend cap must have at most 2 decimals (cents)')).toBeTruthy();
  });

  it('says the most a template with a maximum price would cost, at that price', async () => {
    stubFetch(async (request) => {
      if (pathOf(request) !== '/pricing/estimate/') return json({ detail: 'Not found' }, 404);
      const priced = answer(100, 1);
      // 500 recipients × $0.025, in every market.
      return json({
        ...priced,
        total: 12.5,
        markets: priced.markets.map((m) => ({ ...m, rate: 0.025, cost: m.messages * 0.025 })),
        max_price: 0.025,
      });
    });
    renderWithStore(
      <CostEstimate state={form({ percentage: 100, templateId: '1' })} wabaId="w" onSpendCap={noop} />,
      {
        preloadedState: withAccount,
      },
    );
    expect(
      await screen.findByText(
        "Estimated cost: at most $12.50 for 500 recipients at the template's maximum price ($0.025 per delivered message)",
        undefined,
        { timeout: 3000 },
      ),
    ).toBeTruthy();
    fireEvent.click(screen.getByText('Cost by market'));
    expect(
      screen.getByText('Meta charges delivered messages only, at the maximum price or less.'),
    ).toBeTruthy();
  });

  it('says the cost could not be estimated when the answer is not an estimate, rather than failing', async () => {
    stubFetch(() => json({ count: 0, results: [] }));
    renderWithStore(
      <CostEstimate state={form({ percentage: 100, templateId: '1' })} wabaId="w" onSpendCap={noop} />,
      { preloadedState: withAccount },
    );
    expect(
      await screen.findByText('The cost could not be estimated now.', undefined, { timeout: 3000 }),
    ).toBeTruthy();
  });
});
