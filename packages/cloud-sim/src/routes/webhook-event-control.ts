import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context';
import { GraphError, invalidParameter, missingParameter } from '../errors';
import { isBsuid } from '../messages/bsuid';
import { requestParams, stringParam } from '../request-params';
import { exampleNotification, WEBHOOK_EXAMPLES } from '../webhooks/event-examples';
import { webhookTarget } from '../webhooks/webhook-target';

const digits = (params: Record<string, unknown>, name: string): string | null => {
  const value = stringParam(params, name)?.replace(/^\+/, '');
  if (value === undefined) return null;
  if (!/^[1-9]\d{6,14}$/.test(value))
    throw invalidParameter(`${name} must be a phone number of 7 to 15 digits`);
  return value;
};

const bsuid = (params: Record<string, unknown>, name: string): string | null => {
  const value = stringParam(params, name);
  if (value === undefined) return null;
  if (!isBsuid(value))
    throw invalidParameter(`${name} must be a business-scoped user id such as US.13491208655302741918`);
  return value;
};

/**
 * `GET /__sandbox/webhook-events`: the names of the events the sandbox can send (event-examples.ts).
 * `POST /__sandbox/webhook-events` {event, phone_number_id, from?, user_id?, new_number?, new_user_id?,
 * template_id? or template_name and template_language?}: sends that event's example for the number's WABA, signed and retried like every webhook.
 */
export function registerWebhookEventControlRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.get('/__sandbox/webhook-events', async () => ({ events: Object.keys(WEBHOOK_EXAMPLES) }));

  app.post('/__sandbox/webhook-events', async (request) => {
    const params = requestParams(request);
    const event = stringParam(params, 'event');
    if (event === undefined) throw missingParameter('event');
    if (!(event in WEBHOOK_EXAMPLES))
      throw invalidParameter(`event must be one of GET /__sandbox/webhook-events`);
    const phoneId = stringParam(params, 'phone_number_id');
    if (phoneId === undefined) throw missingParameter('phone_number_id');
    const phone = ctx.state.findPhoneNumber(phoneId);
    if (!phone) throw new GraphError(404, 100, `(#100) No phone number with id ${phoneId}`);
    // A template by Meta's id, or by its name and language (as the webhook itself names it).
    const templateId = stringParam(params, 'template_id');
    const templateName = stringParam(params, 'template_name');
    const template =
      templateId !== undefined
        ? ctx.state.templates.find(templateId)
        : templateName !== undefined
          ? ctx.state.templates.findByNameAndLanguage(
              phone.wabaId,
              templateName,
              stringParam(params, 'template_language') ?? 'en_US',
            )
          : undefined;
    if (
      (templateId !== undefined || templateName !== undefined) &&
      (!template || template.wabaId !== phone.wabaId)
    )
      throw new GraphError(404, 100, `(#100) No template ${templateId ?? templateName} in this WABA`);
    let notification: ReturnType<typeof exampleNotification>;
    try {
      notification = exampleNotification(event, {
        wabaId: phone.wabaId,
        phoneNumberId: phone.id,
        displayDigits: phone.digits,
        from: digits(params, 'from') ?? '15550001234',
        userId: bsuid(params, 'user_id'),
        newNumber: digits(params, 'new_number'),
        newUserId: bsuid(params, 'new_user_id'),
        template: template
          ? { id: template.id, name: template.name, language: template.language, category: template.category }
          : null,
        ownerBusinessId: ctx.state.findWaba(phone.wabaId)?.businessId,
        now: new Date(),
      });
    } catch (error) {
      throw invalidParameter((error as Error).message);
    }
    // A completed re-categorisation is Meta's template's category from now on: sends and GETs see the new one.
    const newCategory = notification!.body.entry[0]!.changes[0]!.value as { new_category?: unknown };
    if (
      template &&
      notification!.field === 'template_category_update' &&
      event.endsWith(':done') &&
      typeof newCategory.new_category === 'string'
    )
      template.category = newCategory.new_category as typeof template.category;
    const delivery = ctx.webhooks.send(webhookTarget(ctx, phone.wabaId), notification!.body, {
      field: notification!.field,
      wabaId: phone.wabaId,
    });
    const result = { delivery_id: delivery.id, field: notification!.field };
    await ctx.log.append({ method: 'POST', path: '/__sandbox/webhook-events', body: params, result });
    return result;
  });
}
