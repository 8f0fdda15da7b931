import type { WebhookHandler } from '../webhooks/index';

/** One stored component, in Meta's shape (kept loose: synced templates may hold more). */
type Component = { type: string; format?: string; text?: string; buttons?: Button[]; [key: string]: unknown };
type Button = { type: string; text?: string; url?: string; phone_number?: string; [key: string]: unknown };

/** `message_template_components_update`: the template's texts after an edit made outside Herald. */
export interface ComponentsUpdate {
  message_template_id?: number | string;
  message_template_element?: unknown;
  message_template_title?: unknown;
  message_template_footer?: unknown;
  message_template_buttons?: Array<{
    message_template_button_type?: unknown;
    message_template_button_text?: unknown;
    message_template_button_url?: unknown;
    message_template_button_phone_number?: unknown;
  }>;
}

const str = (value: unknown) => (typeof value === 'string' ? value : null);
const placeholders = (text: string) => new Set(text.match(/\{\{\s*\w+\s*\}\}/g) ?? []).size;

/** The order Meta lists a template's components in. */
const ORDER = ['HEADER', 'BODY', 'FOOTER', 'BUTTONS'];

/**
 * The stored components as Meta now has them after an edit. Meta sends the body, the text header and the footer
 * only when the template has them, and only the URL and phone-number buttons: a text header or footer it leaves
 * out is gone, a media header and the other buttons (quick replies, copy code) are kept as they were. An example
 * stays only while its text has as many variables as before (Meta approved the edit; the example was for review).
 */
export function componentsAfterEdit(stored: Component[], update: ComponentsUpdate): Component[] {
  const body = str(update.message_template_element);
  const title = str(update.message_template_title);
  const footer = str(update.message_template_footer);
  const byType = new Map(stored.map((c) => [c.type.toUpperCase(), c]));
  const next = new Map<string, Component>();

  const header = byType.get('HEADER');
  if (header && (header.format ?? 'TEXT').toUpperCase() !== 'TEXT') next.set('HEADER', header);
  else if (title !== null) next.set('HEADER', retext(header ?? { type: 'HEADER', format: 'TEXT' }, title));

  const storedBody = byType.get('BODY');
  if (body !== null) next.set('BODY', retext(storedBody ?? { type: 'BODY' }, body));
  else if (storedBody) next.set('BODY', storedBody);

  if (footer !== null) next.set('FOOTER', { ...(byType.get('FOOTER') ?? { type: 'FOOTER' }), text: footer });

  const buttons = buttonsAfterEdit(
    byType.get('BUTTONS')?.buttons ?? [],
    update.message_template_buttons ?? [],
  );
  if (buttons.length > 0) next.set('BUTTONS', { ...(byType.get('BUTTONS') ?? { type: 'BUTTONS' }), buttons });

  return ORDER.flatMap((type) => (next.has(type) ? [next.get(type)!] : []));
}

function retext(component: Component, text: string): Component {
  const { example, ...rest } = component;
  const keepExample = example !== undefined && placeholders(component.text ?? '') === placeholders(text);
  return { ...rest, text, ...(keepExample && { example }) };
}

/** URL and phone buttons from Meta's list, in the stored order; every other stored button kept where it was. */
function buttonsAfterEdit(
  stored: Button[],
  edited: NonNullable<ComponentsUpdate['message_template_buttons']>,
) {
  const queue = edited.flatMap((b) => {
    const type = str(b.message_template_button_type)?.toUpperCase();
    const text = str(b.message_template_button_text);
    if (!type || text === null) return [];
    const url = str(b.message_template_button_url);
    const phone = str(b.message_template_button_phone_number);
    return [{ type, text, ...(url !== null && { url }), ...(phone !== null && { phone_number: phone }) }];
  });
  const edits = (type: string) => queue.filter((b) => b.type === type);
  const pending = { URL: edits('URL'), PHONE_NUMBER: edits('PHONE_NUMBER') };
  const result: Button[] = [];
  for (const button of stored) {
    const type = button.type.toUpperCase() as keyof typeof pending;
    if (!(type in pending)) {
      result.push(button);
      continue;
    }
    const edit = pending[type].shift();
    if (!edit) continue; // Meta no longer lists it: removed in the edit.
    const { example, ...rest } = button;
    const keepExample =
      example !== undefined && placeholders(button.url ?? '') === placeholders(edit.url ?? '');
    result.push({ ...rest, ...edit, ...(keepExample && { example }) });
  }
  return [...result, ...pending.URL, ...pending.PHONE_NUMBER];
}

/**
 * `message_template_components_update`: someone edited the template in WhatsApp Manager. Its stored components
 * take Meta's texts (componentsAfterEdit), so the preview, the edit form and what Herald sends match what Meta
 * approved. Matched by Meta's id within the WABA the entry names.
 */
export const applyTemplateComponentsUpdate: WebhookHandler = async (client, change) => {
  const update = change.value as ComponentsUpdate | undefined;
  if (!update?.message_template_id) return;
  const { rows } = await client.query<{ waba_account_id: string; id: string; components: Component[] }>(
    `select t.waba_account_id, t.id, t.components from templates t join waba_accounts w on w.id = t.waba_account_id
      where w.waba_id = $1 and t.meta_template_id = $2 for update of t`,
    [change.wabaId, String(update.message_template_id)],
  );
  for (const row of rows) {
    const components = componentsAfterEdit(Array.isArray(row.components) ? row.components : [], update);
    await client.query(
      `update templates set components = $3::jsonb, updated_at = now()
        where waba_account_id = $1 and id = $2 and components is distinct from $3::jsonb`,
      [row.waba_account_id, row.id, JSON.stringify(components)],
    );
  }
};
