import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import type { BroadcastCost as Cost, MetaBroadcastFigure } from '@herald/contracts';
import { json, pathOf, stubFetch } from '../../../test/fetch-stub';
import { renderWithStore } from '../../../test/render-with-store';
import { withAccount } from '../test/broadcast-fixtures';
import { BillableLine, BroadcastCost } from './broadcast-cost';

// The report's cost line, from what GET /pricing/broadcasts/ computed from stored pricing.
const cost = (patch: Partial<Cost>): Cost => ({
  broadcast_id: 7,
  name: 'Summer launch',
  currency: 'USD',
  billable: 0,
  free: 0,
  unpriced: 0,
  cost: 0,
  markets: [],
  ...patch,
});

describe('BroadcastCost', () => {
  it('shows the billable messages’ cost with the free and unpriced ones apart', async () => {
    const fetchMock = stubFetch((request) =>
      pathOf(request) === '/pricing/broadcasts/'
        ? json({ costs: [cost({ billable: 2, free: 1, unpriced: 3, cost: 0.08 })] })
        : json({ detail: 'Not found' }, 404),
    );
    renderWithStore(<BroadcastCost id={7} wabaId="w" polling={false} />, { preloadedState: withAccount });
    const line = await screen.findByRole('status', { name: 'Cost' });
    expect(line.textContent).toBe('Cost: $0.08 for 2 billable messages, 1 free, 3 not priced yet');
    expect(new URL(fetchMock.requests()[0]!.url).searchParams.get('ids')).toBe('7');
  });

  it('shows nothing until WhatsApp has priced a message', async () => {
    const fetchMock = stubFetch(() => json({ costs: [cost({ unpriced: 4 })] }));
    renderWithStore(<BroadcastCost id={7} wabaId="w" polling={false} />, { preloadedState: withAccount });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fetchMock.requests().length).toBe(1);
    expect(screen.queryByRole('status', { name: 'Cost' })).toBeNull();
  });

  it('history: a row’s billable cost under its recipients', () => {
    renderWithStore(<BillableLine cost={{ billable: 1200, free: 3, cost: 12.84 }} />);
    // One line in two unbreakable parts: the cost, and the count.
    const line = screen.getByText('1,200 billable').parentElement!;
    expect(line.textContent).toBe('$12.84 · 1,200 billable');
    expect(screen.getByText('$12.84 ·').className).toContain('whitespace-nowrap');
  });
});

// Meta's own figure beside Herald's, from GET /pricing/broadcasts/{id}/meta/.
const metaFigure = (patch: Partial<MetaBroadcastFigure>): MetaBroadcastFigure => ({
  broadcast_id: 7,
  currency: 'USD',
  volume: 2,
  cost: 0.08,
  range: { start: '2026-11-25T10:00:00.000Z', end: '2026-11-25T10:30:00.000Z', granularity: 'HALF_HOUR' },
  still_sending: false,
  delivered_billable: 2,
  overlapping: { broadcasts: 0, messages: 0 },
  ...patch,
});

function stubCostAndMeta(meta: Response | (() => Response)) {
  return stubFetch((request) => {
    if (pathOf(request) === '/pricing/broadcasts/')
      return json({ costs: [cost({ billable: 2, cost: 0.08 })] });
    if (pathOf(request) === '/pricing/broadcasts/7/meta/') return typeof meta === 'function' ? meta() : meta;
    return json({ detail: 'Not found' }, 404);
  });
}

describe('Meta’s figure', () => {
  it('shows Meta’s figure beside Herald’s cost, with no note when they agree', async () => {
    const fetchMock = stubCostAndMeta(json(metaFigure({})));
    renderWithStore(<BroadcastCost id={7} wabaId="w" polling={false} />, { preloadedState: withAccount });
    const line = await screen.findByRole('status', { name: "Meta's figure" });
    expect(line.textContent).toBe('Meta’s figure: $0.08 for 2 billable messages delivered from this number');
    expect(fetchMock.requests().map(pathOf)).toContain('/pricing/broadcasts/7/meta/');
    expect(screen.queryByRole('note', { name: "Meta's figure differs" })).toBeNull();
  });

  it('notes a disagreement with the reasons the answer gives', async () => {
    stubCostAndMeta(
      json(
        metaFigure({
          volume: 5,
          cost: 0.2,
          delivered_billable: 1,
          overlapping: { broadcasts: 1, messages: 3 },
        }),
      ),
    );
    renderWithStore(<BroadcastCost id={7} wabaId="w" polling={false} />, { preloadedState: withAccount });
    const note = await screen.findByRole('note', { name: "Meta's figure differs" });
    const reasons = [...note.querySelectorAll('li')].map((li) => li.textContent);
    expect(reasons).toEqual([
      '3 messages of 1 other broadcast from this number were delivered in the same time: Meta counts by number and time, not by broadcast.',
      'Meta bills delivered messages only: 1 of Herald’s 2 billable messages are delivered so far.',
      'Meta’s analytics trail its deliveries and may catch up later.',
      'Test sends and messages sent outside Herald from this number count at Meta too.',
    ]);
  });

  it('counts a cost difference as a disagreement, and compares only counts in another currency', async () => {
    stubCostAndMeta(json(metaFigure({ cost: 0.0812 })));
    const { unmount } = renderWithStore(<BroadcastCost id={7} wabaId="w" polling={false} />, {
      preloadedState: withAccount,
    });
    expect(await screen.findByRole('note', { name: "Meta's figure differs" })).toBeTruthy();
    unmount();
    stubCostAndMeta(json(metaFigure({ cost: 7.5, currency: 'INR' })));
    renderWithStore(<BroadcastCost id={7} wabaId="w" polling={false} />, { preloadedState: withAccount });
    const line = await screen.findByRole('status', { name: "Meta's figure" });
    expect(line.textContent).toBe('Meta’s figure: ₹7.50 for 2 billable messages delivered from this number');
    expect(screen.queryByRole('note', { name: "Meta's figure differs" })).toBeNull();
  });

  it('says why Meta’s figure is not available, and shows none before the broadcast sent anything', async () => {
    stubCostAndMeta(
      json({ detail: 'Meta refused the pricing analytics request: (#100) Invalid parameter: x' }, 502),
    );
    const { unmount } = renderWithStore(<BroadcastCost id={7} wabaId="w" polling={false} />, {
      preloadedState: withAccount,
    });
    const line = await screen.findByRole('status', { name: "Meta's figure" });
    expect(line.textContent).toBe(
      'Meta’s figure: not available (Meta refused the pricing analytics request: (#100) Invalid parameter: x)',
    );
    unmount();
    const fetchMock = stubCostAndMeta(json(metaFigure({ volume: null, cost: null, range: null })));
    renderWithStore(<BroadcastCost id={7} wabaId="w" polling={false} />, { preloadedState: withAccount });
    await screen.findByRole('status', { name: 'Cost' });
    await waitFor(() => expect(fetchMock.requests().map(pathOf)).toContain('/pricing/broadcasts/7/meta/'));
    expect(screen.queryByRole('status', { name: "Meta's figure" })).toBeNull();
  });
});
