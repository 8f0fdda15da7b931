import { noteClickComponent } from '../broadcasts/index';
import type { WebhookHandler } from '../webhooks/index';
import { cleanClickId } from './link-clicks-repo';

interface UserAction {
  action_type?: unknown;
  timestamp?: unknown;
  marketing_messages_link_click_data?: { click_component?: unknown; click_id?: unknown };
}

/**
 * Meta's `marketing_messages_link_click` (a `messages` change carrying `user_actions`, Marketing Messages API
 * only). It names no person and no message: only a click_id, which Meta also appends to the URL the person
 * opens. Kept as received; the message row whose tracked link was opened with that click_id learns which part
 * of the message was clicked, whichever of the two arrives first (the redirect reads this table too).
 */
export const applyLinkClicks: WebhookHandler = async (client, change) => {
  const value = change.value as
    { user_actions?: unknown; metadata?: { phone_number_id?: unknown } } | undefined;
  if (!Array.isArray(value?.user_actions)) return;
  const phone = String(value.metadata?.phone_number_id ?? '');
  for (const action of value.user_actions as UserAction[]) {
    if (action?.action_type !== 'marketing_messages_link_click') continue;
    const data = action.marketing_messages_link_click_data;
    const clickId = cleanClickId(data?.click_id);
    if (!clickId) continue;
    const component =
      data?.click_component === 'cta' || data?.click_component === 'body' ? data.click_component : null;
    const seconds = Number(action.timestamp);
    const at = Number.isFinite(seconds) && seconds > 0 ? new Date(seconds * 1000) : new Date();
    const { rows } = await client.query<{ id: number }>(
      `with w as (select id from waba_accounts where waba_id = $1)
       insert into meta_link_clicks (waba_account_id, click_id, phone_number_id, click_component, clicked_at)
       select w.id, $2, $3, $4, $5 from w
       on conflict (waba_account_id, click_id) do nothing
       returning waba_account_id::int as id`,
      [change.wabaId, clickId, phone, component, at],
    );
    if (rows[0] && component) await noteClickComponent(client, rows[0].id, clickId, component);
  }
};
