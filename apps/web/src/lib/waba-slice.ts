import { createSlice } from '@reduxjs/toolkit';
import type { PayloadAction } from '@reduxjs/toolkit';

/** A WhatsApp Business account as the login answer lists it; other fields are not shown. */
export type WabaAccount = {
  waba_id: string;
  details: Array<{ display_name?: string; [k: string]: unknown }>;
};

/** Business account state, persisted in local storage under 'waba'. */
export type WabaState = {
  wabaAccounts: WabaAccount[];
  selectedWabaAccount: WabaAccount | null;
};

export const initialWabaState: WabaState = { wabaAccounts: [], selectedWabaAccount: null };

const wabaSlice = createSlice({
  name: 'waba',
  initialState: initialWabaState,
  reducers: {
    /** Stores the list and selects the first account when none is selected yet. */
    setWabaAccounts(state, action: PayloadAction<WabaAccount[]>) {
      state.wabaAccounts = action.payload;
      const [first] = action.payload;
      if (state.selectedWabaAccount === null && first !== undefined) {
        state.selectedWabaAccount = first;
      }
    },
    selectWabaAccount(state, action: PayloadAction<WabaAccount>) {
      state.selectedWabaAccount = action.payload;
    },
    clearWabaAccounts(state) {
      state.wabaAccounts = [];
      state.selectedWabaAccount = null;
    },
  },
});

export const { setWabaAccounts, selectWabaAccount, clearWabaAccounts } = wabaSlice.actions;
export const wabaReducer = wabaSlice.reducer;

/** The name an account is shown by: its first detail's display name, else its id. */
export function wabaAccountLabel(account: WabaAccount): string {
  return account.details[0]?.display_name || account.waba_id;
}
