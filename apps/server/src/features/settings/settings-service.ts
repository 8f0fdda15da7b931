import type { AccountSettingsResponse, AccountSettingsUpdate } from '@herald/contracts';
import type { Pool } from '../../db/pool';
import type { OwnedWaba } from '../../owned-waba';
import { readAccountSettings, saveAccountSettings } from './settings-repo';

/** Settings saved per business account: read and saved only within the caller's account. */
export class SettingsService {
  constructor(private readonly deps: { pool: Pool; mailServerConfigured: boolean }) {}

  async read(waba: OwnedWaba): Promise<AccountSettingsResponse> {
    return this.answer(waba, await readAccountSettings(this.deps.pool, waba.id));
  }

  async save(waba: OwnedWaba, update: AccountSettingsUpdate): Promise<AccountSettingsResponse> {
    return this.answer(waba, await saveAccountSettings(this.deps.pool, waba.id, update));
  }

  private answer(waba: OwnedWaba, settings: AccountSettingsResponse['settings']): AccountSettingsResponse {
    return {
      waba_id: waba.wabaId,
      settings,
      mail_server_configured: this.deps.mailServerConfigured,
    };
  }
}
