import { findVariables, readVariableMap } from '@herald/contracts';

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

/**
 * One recipient's `template.components` for Meta's send: each variable filled from the contact's column when
 * it is dynamic, else from its static value. A contact without the value a dynamic variable needs gets a
 * clear reason instead of a message with a blank in it.
 */
export function renderMessage(template: SendableTemplate, contact: ContactValues): RenderResult {
  const vars = variables(template);
  const components: Array<Record<string, unknown>> = [];
  const value = (
    n: string,
    dynamic: Map<string, string>,
    statics: Map<string, string>,
  ): string | { missing: string } => {
    const column = dynamic.get(n)?.trim();
    if (column) {
      const raw = contact[column];
      const text = raw === null || raw === undefined ? '' : String(raw).trim();
      return text ? text : { missing: `The contact has no ${column} for {{${n}}}` };
    }
    const text = statics.get(n)?.trim() ?? '';
    return text ? text : { missing: `No value for {{${n}}}` };
  };

  for (const component of template.components) {
    const type = String(component.type ?? '').toUpperCase();
    if (type === 'HEADER') {
      const format = String(component.format ?? '').toUpperCase();
      if (format === 'TEXT' && findVariables(String(component.text ?? '')).length > 0) {
        const text = value('1', vars.dynamicHeader, vars.staticHeader);
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
          const text = value(String(n), vars.dynamicBody, vars.staticBody);
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
          components.push({
            type: 'button',
            sub_type: 'url',
            index: String(index),
            parameters: [{ type: 'text', text: example || 'default_value' }],
          });
        }
      });
    }
  }
  return { ok: true, components };
}
