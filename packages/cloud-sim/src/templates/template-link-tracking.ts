import { invalidParameter } from '../errors';
import type { MessageTemplate } from './template-store';

const FIELD = 'cta_url_link_tracking_opted_out';

/**
 * `cta_url_link_tracking_opted_out` of a template create or edit (Meta's message template reference: "opting
 * out/in of link tracking at template level"): true, Meta does not track taps on the template's URL buttons, so
 * template analytics counts no `url_button` clicks for it. Absent: undefined (create: tracked; edit: unchanged).
 */
export function readLinkTrackingOptOut(params: Record<string, unknown>): boolean | undefined {
  const value = params[FIELD];
  if (value === undefined) return undefined;
  // JSON bodies carry a boolean; form bodies and query strings carry its text.
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  throw invalidParameter(`${FIELD} must be true or false`);
}

/** Sets the opt-out; false is kept as absent, so templates that never opted out keep their old shape. */
export function applyLinkTrackingOptOut(template: MessageTemplate, optedOut: boolean | undefined): void {
  if (optedOut === undefined) return;
  if (optedOut) template.ctaUrlLinkTrackingOptedOut = true;
  else delete template.ctaUrlLinkTrackingOptedOut;
}

/** An edit that changes only the opt-out: everything else it names is what the template already has. */
export function editsOnlyLinkTracking(params: Record<string, unknown>): boolean {
  const editable = ['components', 'category', 'message_send_ttl_seconds', 'optimization_spec'];
  return params[FIELD] !== undefined && editable.every((key) => params[key] === undefined);
}

/** The template node's field, only when opted out (as the TTL, absent means the default: tracked). */
export function linkTrackingField(template: MessageTemplate): { cta_url_link_tracking_opted_out?: true } {
  return template.ctaUrlLinkTrackingOptedOut === true ? { [FIELD]: true } : {};
}
