import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import type { BroadcastCost as Cost } from '@herald/contracts';
import { json, pathOf, stubFetch } from '../../../test/fetch-stub';
import { renderWithStore } from '../../../test/render-with-store';
import { withAccount } from '../test/broadcast-fixtures';
import { BillableLine, BroadcastCost } from './broadcast-cost';

// Issue 20 item 1: the report's cost line, from what GET /pricing/broadcasts/ computed from stored pricing.
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
    expect(screen.getByText('$12.84 · 1,200 billable')).toBeTruthy();
  });
});
