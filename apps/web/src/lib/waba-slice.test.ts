import { describe, expect, it } from 'vitest';
import {
  clearWabaAccounts,
  initialWabaState,
  selectWabaAccount,
  setWabaAccounts,
  wabaAccountLabel,
  wabaReducer,
} from './waba-slice';
import type { WabaAccount } from './waba-slice';

const first: WabaAccount = { waba_id: '111', details: [{ display_name: 'Acme Shop' }] };
const second: WabaAccount = { waba_id: '222', details: [{ display_name: 'Acme Support' }] };

describe('waba slice', () => {
  it('starts with no accounts and no selection', () => {
    expect(wabaReducer(undefined, { type: '@@init' })).toEqual({
      wabaAccounts: [],
      selectedWabaAccount: null,
    });
  });

  it('setWabaAccounts stores the list and selects the first account when none is selected', () => {
    const state = wabaReducer(initialWabaState, setWabaAccounts([first, second]));
    expect(state.wabaAccounts).toEqual([first, second]);
    expect(state.selectedWabaAccount).toEqual(first);
  });

  it('setWabaAccounts keeps an existing selection', () => {
    const state = wabaReducer(
      { wabaAccounts: [first, second], selectedWabaAccount: second },
      setWabaAccounts([first, second]),
    );
    expect(state.selectedWabaAccount).toEqual(second);
  });

  it('setWabaAccounts with an empty list selects nothing', () => {
    const state = wabaReducer(initialWabaState, setWabaAccounts([]));
    expect(state).toEqual({ wabaAccounts: [], selectedWabaAccount: null });
  });

  it('selectWabaAccount replaces the selection', () => {
    const state = wabaReducer(
      { wabaAccounts: [first, second], selectedWabaAccount: first },
      selectWabaAccount(second),
    );
    expect(state.selectedWabaAccount).toEqual(second);
    expect(state.wabaAccounts).toEqual([first, second]);
  });

  it('clearWabaAccounts empties the list and the selection', () => {
    const state = wabaReducer(
      { wabaAccounts: [first, second], selectedWabaAccount: second },
      clearWabaAccounts(),
    );
    expect(state).toEqual({ wabaAccounts: [], selectedWabaAccount: null });
  });

  it('labels an account by its first display name, falling back to its id', () => {
    expect(wabaAccountLabel(first)).toBe('Acme Shop');
    expect(wabaAccountLabel({ waba_id: '333', details: [] })).toBe('333');
    expect(wabaAccountLabel({ waba_id: '444', details: [{ display_name: '' }] })).toBe('444');
  });
});
