import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { renderWithStore } from '../../test/render-with-store';
import type { WabaAccount } from '../../lib/waba-slice';
import { AccountSelector } from './account-selector';

const shop: WabaAccount = { waba_id: '111', details: [{ display_name: 'Acme Shop' }] };
const bare: WabaAccount = { waba_id: '222', details: [] };

const originalLocation = Object.getOwnPropertyDescriptor(window, 'location');
const reload = vi.fn();

beforeEach(() => {
  reload.mockReset();
  // jsdom's location.reload cannot be spied on; swap in a location object whose reload is a stub.
  Object.defineProperty(window, 'location', { configurable: true, value: { ...window.location, reload } });
});

afterEach(() => {
  if (originalLocation) Object.defineProperty(window, 'location', originalLocation);
});

describe('account selector', () => {
  it('is hidden when there are no accounts', () => {
    const { container } = renderWithStore(<AccountSelector />);
    expect(container.innerHTML).toBe('');
    expect(screen.queryByRole('combobox')).toBeNull();
  });

  it('lists accounts by display name, falling back to the account id', () => {
    renderWithStore(<AccountSelector />, {
      preloadedState: { waba: { wabaAccounts: [shop, bare], selectedWabaAccount: shop } },
    });
    const select = screen.getByRole('combobox', { name: 'Business account' }) as HTMLSelectElement;
    expect(
      within(select)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Acme Shop', '222']);
    expect(select.value).toBe('111');
    expect(select.title).toBe('Acme Shop'); // the whole name where the header cuts it
  });

  it('is shown for a single account', () => {
    renderWithStore(<AccountSelector />, {
      preloadedState: { waba: { wabaAccounts: [bare], selectedWabaAccount: bare } },
    });
    expect(screen.getByRole('combobox', { name: 'Business account' })).toBeTruthy();
  });

  it('stores the chosen account as selected and reloads the page', () => {
    const { store } = renderWithStore(<AccountSelector />, {
      preloadedState: { waba: { wabaAccounts: [shop, bare], selectedWabaAccount: shop } },
    });
    fireEvent.change(screen.getByRole('combobox', { name: 'Business account' }), {
      target: { value: '222' },
    });

    expect(store.getState().waba.selectedWabaAccount).toEqual(bare);
    expect(store.getState().waba.wabaAccounts).toEqual([shop, bare]);
    expect(reload).toHaveBeenCalledTimes(1);
  });
});
