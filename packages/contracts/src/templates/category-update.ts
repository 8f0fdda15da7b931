/**
 * Meta's `template_category_update` webhook, in its two shapes. The notice a day ahead carries `correct_category`
 * (the category to come), `new_category` (the current one, in Meta's words) and `category_update_timestamp`
 * (Unix seconds, when the change applies); the change itself carries `previous_category` and `new_category`
 * (the one it now has). Read once here for the templates (which store it) and the broadcasts (which hold a
 * sending broadcast of the template).
 */
export interface TemplateCategoryUpdate {
  /** Meta's template id. */
  templateId: string;
  /** The category to come (a notice); null in the change itself. */
  coming: string | null;
  /** `new_category`: the current category in a notice, the new one in the change. */
  current: string | null;
  /** When the coming category applies, if Meta said. */
  at: Date | null;
}

const category = (value: unknown) =>
  typeof value === 'string' && value.trim() !== '' ? value.trim().toUpperCase() : null;

/** Meta's timestamp (Unix seconds, as a number or a string) as a Date; null when absent or not one. */
function timestamp(raw: unknown): Date | null {
  const seconds = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0
    ? new Date(seconds * 1000)
    : null;
}

/** The update's fields, categories upper-cased; null without a template id. */
export function parseTemplateCategoryUpdate(value: unknown): TemplateCategoryUpdate | null {
  const update = (value ?? {}) as Record<string, unknown>;
  const id = update.message_template_id;
  if ((typeof id !== 'string' || id.trim() === '') && typeof id !== 'number') return null;
  return {
    templateId: String(id),
    coming: category(update.correct_category),
    current: category(update.new_category),
    at: timestamp(update.category_update_timestamp),
  };
}
