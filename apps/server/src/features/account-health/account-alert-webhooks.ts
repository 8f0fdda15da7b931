import type { PoolClient } from 'pg';
import { recordAccountEvent } from '../notifications/index';
import type { WebhookHandler } from '../webhooks/index';

const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);

async function accountOf(client: PoolClient, wabaId: string): Promise<number | null> {
  const { rows } = await client.query<{ id: number }>(
    'select id::int from waba_accounts where waba_id = $1',
    [wabaId],
  );
  return rows[0]?.id ?? null;
}

/** "INCREASED_CAPABILITIES_ELIGIBILITY_DEFERRED" → "Increased capabilities eligibility deferred". */
const words = (code: string) => {
  const lower = code.toLowerCase().replace(/_/g, ' ');
  return lower.charAt(0).toUpperCase() + lower.slice(1);
};

interface AlertValue {
  entity_type?: unknown;
  alert_info?: Record<string, unknown>;
  alert_type?: unknown;
  alert_severity?: unknown;
  alert_status?: unknown;
  alert_description?: unknown;
}

/**
 * `account_alerts`: what Meta wants the business to know about its account or a number (messaging limit
 * increase deferred or failed, more information needed, Official Business Account decisions, a lost profile
 * picture). Herald keeps no state for them: each active alert becomes a bell entry with Meta's own description;
 * an alert Meta reports as no longer active (`NONE`) is said to be resolved. Meta's reference nests the fields in
 * `alert_info`; some deliveries carry them at the top level, which is read too.
 */
export const applyAccountAlert: WebhookHandler = async (client, change) => {
  const value = (change.value ?? {}) as AlertValue;
  const info = value.alert_info ?? (value as Record<string, unknown>);
  const type = text(info.alert_type);
  if (!type) return;
  const accountId = await accountOf(client, change.wabaId);
  if (accountId === null) return;
  const severity = text(info.alert_severity);
  const resolved = text(info.alert_status) === 'NONE';
  const description = text(info.alert_description) ?? 'WhatsApp gave no description.';
  await recordAccountEvent(client, {
    accountId,
    kind: 'account_alert',
    title: `${words(type)}${resolved ? ' (resolved)' : ''}`,
    detail: `${severity ? `${words(severity)}: ` : ''}${description}`,
    oncePerDay: true,
  });
};

interface ValueError {
  code?: unknown;
  title?: unknown;
  message?: unknown;
  error_data?: { details?: unknown };
}

/**
 * A `messages` change that carries only `errors` (Meta's webhook errors page): a system- or app-level problem
 * stopped Meta from processing something for the account. No message or status says which, so the business is
 * told in the bell with Meta's code and words; the event itself stays stored.
 */
export const applyWebhookErrors: WebhookHandler = async (client, change) => {
  const value = (change.value ?? {}) as { errors?: unknown; messages?: unknown; statuses?: unknown };
  if (!Array.isArray(value.errors) || value.errors.length === 0) return;
  const accountId = await accountOf(client, change.wabaId);
  if (accountId === null) return;
  for (const raw of value.errors as ValueError[]) {
    const code = typeof raw?.code === 'number' ? raw.code : Number(text(raw?.code) ?? NaN);
    const title = text(raw?.title) ?? text(raw?.message) ?? 'Unknown error';
    const details = text(raw?.error_data?.details) ?? text(raw?.message);
    await recordAccountEvent(client, {
      accountId,
      kind: 'account_alert',
      title: `WhatsApp could not process a request${Number.isFinite(code) ? ` (#${code})` : ''}`,
      detail: details && details !== title ? `${title}: ${details}` : title,
      oncePerDay: true,
    });
  }
};
