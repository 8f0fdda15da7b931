import { findVariables, flattenParameter, readVariableMap } from '@herald/contracts';

/** The template as stored, enough to personalise a send. */
export interface SendableTemplate {
  name: string;
  language: string;
  components: Array<Record<string, unknown>>;
  staticVariables: unknown;
  dynamicVariables: unknown;
  /** The header's media as uploaded to the sending number (`POST /{phone-number-id}/media`). */
  mediaId?: string | null;
  /** Or where Meta can fetch it (a public link). */
  mediaLink?: string | null;
  /** The BUTTONS index of its tracked link button when its broadcast counts clicks (decision 091). */
  linkButtonIndex?: number | null;
}

/** The contact's columns by the names templates use (GET /recipient/cols). */
export type ContactValues = Record<string, string | number | null | undefined>;

export type RenderResult =
  { ok: true; components: Array<Record<string, unknown>> } | { ok: false; reason: string };

interface Vars {
  staticHeader: Map<string, string>;
  dynamicHeader: Map<string, string>;
  staticBody: Map<string, string>;
  dynamicBody: Map<string, string>;
}

function variables(template: SendableTemplate): Vars {
  const statics = (template.staticVariables ?? {}) as Record<string, unknown>;
  const dynamics = (template.dynamicVariables ?? {}) as Record<string, unknown>;
  return {
    staticHeader: readVariableMap(statics.header_variable),
    dynamicHeader: readVariableMap(dynamics.header_variable ?? dynamics.header_variables),
    staticBody: readVariableMap(statics.body_variable),
    dynamicBody: readVariableMap(dynamics.body_variable),
  };
}

type Json = Record<string, unknown>;

function exampleOf(component: Json | undefined): Json {
  const example = component?.example;
  return example !== null && typeof example === 'object' && !Array.isArray(example) ? (example as Json) : {};
}

/** The samples the template was reviewed with, by variable (`example.header_text`, `example.body_text[0]`). */
function samplesOf(template: SendableTemplate) {
  const find = (type: string) => template.components.find((c) => String(c.type ?? '').toUpperCase() === type);
  const header = exampleOf(find('HEADER')).header_text;
  const rows = exampleOf(find('BODY')).body_text;
  const body: unknown = Array.isArray(rows) ? rows[0] : undefined;
  return {
    header: (n: string) => (Array.isArray(header) && n === '1' ? header[0] : undefined),
    body: (n: string) => (Array.isArray(body) ? body[Number(n) - 1] : undefined),
  };
}

/**
 * One recipient's `template.components` for Meta's send: each variable filled from the contact's column when
 * it is dynamic, else from its static value, flattened as Meta requires (flattenParameter: no line break,
 * tab or run of spaces, which Meta refuses with 132018). A value with nothing left after flattening is never
 * sent blank: the template's sample for that variable stands in (what Meta reviewed it with), and without one
 * the recipient gets a clear reason instead of a message.
 */
export function renderMessage(
  template: SendableTemplate,
  contact: ContactValues,
  /** The recipient's own tracked-link token, for the tracked button's `{{1}}`. */
  linkToken?: string,
): RenderResult {
  const vars = variables(template);
  const samples = samplesOf(template);
  const components: Array<Record<string, unknown>> = [];
  const value = (
    n: string,
    dynamic: Map<string, string>,
    statics: Map<string, string>,
    sample: (n: string) => unknown,
  ): string | { missing: string } => {
    const column = dynamic.get(n)?.trim();
    const raw = column ? contact[column] : statics.get(n);
    const text = raw === null || raw === undefined ? '' : flattenParameter(String(raw));
    if (text) return text;
    const stand = typeof sample(n) === 'string' ? flattenParameter(sample(n) as string) : '';
    if (stand) return stand;
    return { missing: column ? `The contact has no ${column} for {{${n}}}` : `No value for {{${n}}}` };
  };

  for (const component of template.components) {
    const type = String(component.type ?? '').toUpperCase();
    if (type === 'HEADER') {
      const format = String(component.format ?? '').toUpperCase();
      if (format === 'TEXT' && findVariables(String(component.text ?? '')).length > 0) {
        const text = value('1', vars.dynamicHeader, vars.staticHeader, samples.header);
        if (typeof text !== 'string') return { ok: false, reason: text.missing };
        components.push({ type: 'header', parameters: [{ type: 'text', text }] });
      } else if (format === 'IMAGE' || format === 'VIDEO' || format === 'DOCUMENT') {
        const media = template.mediaId
          ? { id: template.mediaId }
          : template.mediaLink
            ? { link: template.mediaLink }
            : null;
        if (!media) return { ok: false, reason: 'The template’s header media is missing: edit the template' };
        const kind = format.toLowerCase();
        components.push({ type: 'header', parameters: [{ type: kind, [kind]: media }] });
      }
    } else if (type === 'BODY') {
      const numbers = [...new Set(findVariables(String(component.text ?? '')).map((v) => v.n))].sort(
        (a, b) => a - b,
      );
      if (numbers.length > 0) {
        const parameters = [];
        for (const n of numbers) {
          const text = value(String(n), vars.dynamicBody, vars.staticBody, samples.body);
          if (typeof text !== 'string') return { ok: false, reason: text.missing };
          parameters.push({ type: 'text', text });
        }
        components.push({ type: 'body', parameters });
      }
    } else if (type === 'BUTTONS') {
      const buttons = Array.isArray(component.buttons)
        ? (component.buttons as Array<Record<string, unknown>>)
        : [];
      buttons.forEach((button, index) => {
        if (
          String(button.type).toUpperCase() === 'URL' &&
          findVariables(String(button.url ?? '')).length > 0
        ) {
          const example = Array.isArray(button.example)
            ? String(button.example[0] ?? '')
            : String(button.example ?? '');
          const tracked = linkToken !== undefined && index === template.linkButtonIndex;
          components.push({
            type: 'button',
            sub_type: 'url',
            index: String(index),
            parameters: [
              { type: 'text', text: tracked ? linkToken : flattenParameter(example) || 'default_value' },
            ],
          });
        }
      });
    }
  }
  return { ok: true, components };
}
