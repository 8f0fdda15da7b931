import { invalidParameter } from '../errors';
import type { SentParameters } from '../messages/validate-send';
import { variableMarkers } from '../templates/template-variables';
import type { TemplateComponent } from '../templates/validate-template';

/** Where in the message the person tapped, as Meta's `click_component` names it. */
export type ClickComponent = 'cta' | 'body';

/** What a click control call chose: the part tapped and, for a button, which one (null: the first URL button). */
export interface ClickChoice {
  component: ClickComponent;
  button: number | null;
}

// WhatsApp links a URL in text up to the first space; punctuation closing a sentence stays out of the link.
const BODY_URL = /https?:\/\/[^\s<>"]+/i;
const TRAILING_PUNCTUATION = /[.,;:!?)\]}'"]+$/;

/** A template text with its `{{n}}` markers filled by the values sent for them (a marker without one stays). */
function fillVariables(text: string, values: string[]): string {
  let out = '';
  let from = 0;
  for (const marker of variableMarkers(text)) {
    const value = /^[1-9]\d*$/.test(marker.name) ? values[Number(marker.name) - 1] : undefined;
    out += text.slice(from, marker.index) + (value ?? text.slice(marker.index, marker.end));
    from = marker.end;
  }
  return out + text.slice(from);
}

const componentOf = (components: TemplateComponent[], type: string) =>
  components.find((c) => String(c.type).toUpperCase() === type);

/** The URL button the person taps: the one at `button`, else the template's first URL button. */
function buttonUrl(
  templateName: string,
  components: TemplateComponent[],
  parameters: SentParameters,
  button: number | null,
): string {
  const raw = componentOf(components, 'BUTTONS')?.buttons;
  const buttons = (Array.isArray(raw) ? raw : []) as Record<string, unknown>[];
  const isUrlButton = (b: Record<string, unknown> | undefined) =>
    String(b?.type ?? '').toUpperCase() === 'URL' && typeof b?.url === 'string';
  const index = button ?? buttons.findIndex(isUrlButton);
  if (index < 0) throw invalidParameter(`button: template ${templateName} has no URL button`);
  if (!isUrlButton(buttons[index]))
    throw invalidParameter(`button: template ${templateName} has no URL button at index ${index}`);
  // The send's `button` component of that index fills the URL's one variable, {{1}} at its end.
  return fillVariables(String(buttons[index]!.url), parameters[`button_${index}`] ?? []);
}

/** The first http(s) link of the body as the person read it: its variables filled by the body parameters. */
function bodyUrl(templateName: string, components: TemplateComponent[], parameters: SentParameters): string {
  const text = componentOf(components, 'BODY')?.text;
  const rendered = typeof text === 'string' ? fillVariables(text, parameters.body ?? []) : '';
  const found = BODY_URL.exec(rendered)?.[0].replace(TRAILING_PUNCTUATION, '');
  if (!found) throw invalidParameter(`component: the body of template ${templateName} has no http(s) link`);
  return found;
}

/**
 * The URL a tap on a sent template's link opens, before Meta adds its `click_id`: the button's URL or the body's
 * link, with the values that message was sent with. A 400 names the field that points at no link.
 */
export function clickedLink(
  template: { name: string; components: TemplateComponent[] },
  parameters: SentParameters,
  choice: ClickChoice,
): string {
  return choice.component === 'cta'
    ? buttonUrl(template.name, template.components, parameters, choice.button)
    : bodyUrl(template.name, template.components, parameters);
}

/**
 * Meta appends `click_id` to the original URL when the person visits it. Added as written (not through URL's
 * serialiser), so the URL's own query and fragment reach the site exactly as the business wrote them.
 */
export function withClickId(url: string, clickId: string): string {
  const hash = url.indexOf('#');
  const base = hash < 0 ? url : url.slice(0, hash);
  const fragment = hash < 0 ? '' : url.slice(hash);
  const separator = !base.includes('?') ? '?' : /[?&]$/.test(base) ? '' : '&';
  return `${base}${separator}click_id=${encodeURIComponent(clickId)}${fragment}`;
}
