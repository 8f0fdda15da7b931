import { flattenParameter, previewSampleValue, renderPreviewText } from '@herald/contracts';
import type { Contact, TemplateDetail } from '@herald/contracts';

/** The contact field behind each base customer column (GET /recipient/cols names). */
const CONTACT_FIELDS: Readonly<Record<string, keyof Contact>> = {
  name: 'recipient_name',
  whatsapp_number: 'whatsapp_number',
  age: 'recipient_age',
  gender: 'recipient_gender',
  address: 'recipient_address',
  post_code: 'recipient_post_code',
  email: 'recipient_email',
};

/**
 * What a dynamic variable bound to `column` shows: the contact's own value, flattened as the engine sends it
 * (line breaks, tabs and runs of spaces as one space); '[column]' when the contact has none (the engine never
 * sends a blank); the spec's sample when there is no contact at all.
 */
export function contactColumnValue(contact: Contact | null, column: string): string {
  if (!contact) return previewSampleValue(column);
  const field = Object.hasOwn(CONTACT_FIELDS, column) ? CONTACT_FIELDS[column] : undefined;
  const raw: unknown = field ? contact[field] : (contact as Record<string, unknown>)[column];
  const value = raw === null || raw === undefined ? '' : flattenParameter(String(raw));
  return value === '' ? `[${column}]` : value;
}

type VariableMap = Record<string, string> | Array<Record<string, string>> | undefined;

/** `{"1": x}` or the spec's list form `[{"1": x}, {"2": y}]` as one map. */
function flatten(map: VariableMap): Record<string, string> {
  if (!map) return {};
  return Array.isArray(map) ? Object.assign({}, ...map) : map;
}

export type BoundVariable = { part: 'Header' | 'Body'; index: number; column: string };

/** The template's variables filled from a contact column, header first, each in its number order. */
export function boundVariables(template: TemplateDetail): BoundVariable[] {
  const parts = [
    ['Header', flatten(template.dynamic_variables.header_variables)],
    ['Body', flatten(template.dynamic_variables.body_variable)],
  ] as const;
  return parts.flatMap(([part, map]) =>
    Object.entries(map)
      .map(([key, column]) => ({ part, index: Number(key), column }))
      .sort((a, b) => a.index - b.index),
  );
}

export type PreviewButton = { type: string; text: string };

export type PreviewContent = {
  /** 'text', 'image', 'video', 'document', 'location' or null without a header. */
  headerFormat: string | null;
  headerText: string;
  body: string;
  footer: string;
  buttons: PreviewButton[];
};

/**
 * The template as the first recipient would get it: each dynamic variable filled from `contact`'s column,
 * each static one with its stored value.
 */
export function templatePreviewContent(template: TemplateDetail, contact: Contact | null): PreviewContent {
  const dynamicHeader = flatten(template.dynamic_variables.header_variables);
  const dynamicBody = flatten(template.dynamic_variables.body_variable);
  const staticHeader = flatten(template.static_variables?.header_variable);
  const staticBody = flatten(template.static_variables?.body_variable);

  function valuesFor(dynamic: Record<string, string>, fixed: Record<string, string>): Record<number, string> {
    const values: Record<number, string> = {};
    for (const [key, text] of Object.entries(fixed)) values[Number(key)] = text;
    for (const [key, column] of Object.entries(dynamic))
      values[Number(key)] = contactColumnValue(contact, column);
    return values;
  }

  const content: PreviewContent = { headerFormat: null, headerText: '', body: '', footer: '', buttons: [] };
  for (const component of template.components) {
    const part = component as Record<string, unknown>;
    const text = typeof part.text === 'string' ? part.text : '';
    switch (component.type.toUpperCase()) {
      case 'HEADER':
        content.headerFormat = typeof part.format === 'string' ? part.format.toLowerCase() : 'text';
        content.headerText = renderPreviewText(text, valuesFor(dynamicHeader, staticHeader));
        break;
      case 'BODY':
        content.body = renderPreviewText(text, valuesFor(dynamicBody, staticBody));
        break;
      case 'FOOTER':
        content.footer = text;
        break;
      case 'BUTTONS':
        content.buttons = (Array.isArray(part.buttons) ? part.buttons : []).map((button: unknown) => {
          const { type, text: label } = (button ?? {}) as { type?: unknown; text?: unknown };
          return { type: String(type ?? ''), text: String(label ?? '') };
        });
        break;
    }
  }
  return content;
}
