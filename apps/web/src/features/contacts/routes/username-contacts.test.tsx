import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import type { Contact } from '@herald/contracts';
import { renderRoute, signedIn } from '../../../test/render-with-store';
import { json, pathOf, stubFetch } from '../../../test/fetch-stub';
import type { PreloadedState } from '../../../lib/store';

const account = { waba_id: '111', details: [{ display_name: 'Acme Shop' }] };
const withAccount: PreloadedState = {
  ...signedIn,
  waba: { wabaAccounts: [account], selectedWabaAccount: account },
};

const base = {
  recipient_age: null,
  recipient_gender: null,
  recipient_address: null,
  recipient_post_code: null,
  recipient_email: null,
  tags: [],
};

/** A customer who hides their number is known by BSUID (their address) and maybe a username. */
const contacts: Contact[] = [
  {
    ...base,
    id: 1,
    recipient_name: 'Sam Kim',
    whatsapp_number: 'US.1349120865',
    bsuid: 'US.1349120865',
    username: 'sam.k',
  },
  { ...base, id: 2, recipient_name: 'No Name Yet', whatsapp_number: 'BR.1502576394', bsuid: 'BR.1502576394' },
  {
    ...base,
    id: 3,
    recipient_name: 'Ann',
    whatsapp_number: '+14155550123',
    bsuid: 'US.2000000001',
    username: 'ann.b',
  },
];

describe('Customers known only by their username', () => {
  it('shows @username (or Number hidden) instead of a BSUID, and a number when there is one', async () => {
    stubFetch((request) => {
      if (pathOf(request) === '/recipient/tags/') return json([]);
      if (pathOf(request) === '/dashboard/header') return json({ contacts: 3, events: [], unread: 0 });
      return json({ count: 3, next: null, previous: null, results: contacts });
    });
    renderRoute('/customers', { preloadedState: withAccount });
    const numberOf = async (name: string) =>
      within((await screen.findByText(name)).closest('tr') as HTMLElement).getAllByRole('cell')[2]!
        .textContent;
    expect(await numberOf('Sam Kim')).toBe('@sam.k');
    expect(await numberOf('No Name Yet')).toBe('Number hidden');
    expect(await numberOf('Ann')).toBe('+1 415 555 0123');
    expect(screen.queryByText(/US\.1349120865/)).toBeNull();
  });
});
