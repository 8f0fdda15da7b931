import {
  ErrorResponseSchema,
  TEMPLATE_CLICKS_DAYS,
  TemplateClicksResponseSchema,
  type TemplateButtonClicks,
  type TemplateClicksResponse,
} from '@herald/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Pool } from '../../db/pool';
import { GraphApiError, type GraphClient, type GraphTemplateAnalytics } from '../../graph/graph-client';
import { HttpError } from '../../http-error';
import type { OwnedWaba } from '../../owned-waba';
import type { SecretBox } from '../../security/secret-box';
import { trackedClicksOfTemplate } from '../broadcasts/index';
import { findTemplate } from './templates-repo';

export interface TemplateClicksDependencies {
  pool: Pool;
  graph: GraphClient;
  secrets: SecretBox;
}

const DAY_MS = 86_400_000;

/** Meta's daily points summed per button (type and text): every tap, as Meta counts them. */
export function sumButtonClicks(answer: GraphTemplateAnalytics): {
  total: number;
  buttons: TemplateButtonClicks[];
} {
  const byButton = new Map<string, TemplateButtonClicks>();
  for (const block of answer.data ?? []) {
    for (const point of block.data_points ?? []) {
      for (const click of point.clicked ?? []) {
        const type = click.type ?? 'button';
        const button = click.button_content ?? '';
        const key = `${type}\u0000${button}`;
        const line = byButton.get(key) ?? { type, button, count: 0 };
        line.count += Number(click.count ?? 0);
        byButton.set(key, line);
      }
    }
  }
  const buttons = [...byButton.values()]
    .filter((line) => line.count > 0)
    .sort((a, b) => b.count - a.count || a.button.localeCompare(b.button));
  return { total: buttons.reduce((sum, line) => sum + line.count, 0), buttons };
}

/**
 * A template's clicks over Meta's 90-day look-back, two ways: WhatsApp's template analytics (`clicked`: taps on
 * its buttons) and Herald's tracked links (people, once each). Meta counts template analytics only once the
 * account has confirmed them: Herald confirms on the first read and remembers it.
 */
export class TemplateClicksService {
  constructor(private readonly deps: TemplateClicksDependencies) {}

  async clicks(waba: OwnedWaba, id: number, now = new Date()): Promise<TemplateClicksResponse> {
    const template = await findTemplate(this.deps.pool, waba.id, id);
    if (!template) throw HttpError.field(404, 'id', 'Template not found');
    const today = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
    const from = new Date(today - (TEMPLATE_CLICKS_DAYS - 1) * DAY_MS);
    const tracked = await trackedClicksOfTemplate(this.deps.pool, waba.id, id, from);
    const answer = { from: from.toISOString(), tracked };
    if (!template.meta_template_id) {
      return { ...answer, whatsapp: null, whatsapp_unavailable: 'Not submitted to WhatsApp yet' };
    }
    try {
      const token = this.deps.secrets.open(waba.businessTokenEncrypted);
      await this.confirmInsights(waba, token);
      const analytics = await this.deps.graph.getTemplateClicks(
        token,
        waba.wabaId,
        template.meta_template_id,
        Math.floor(from.getTime() / 1000),
        Math.ceil(now.getTime() / 1000),
      );
      return { ...answer, whatsapp: sumButtonClicks(analytics), whatsapp_unavailable: null };
    } catch (error) {
      if (!(error instanceof GraphApiError)) throw error;
      return {
        ...answer,
        whatsapp: null,
        whatsapp_unavailable: `WhatsApp's template analytics could not be read now: ${error.message}`,
      };
    }
  }

  private async confirmInsights(waba: OwnedWaba, token: string): Promise<void> {
    const { rows } = await this.deps.pool.query<{ confirmed: boolean }>(
      'select template_insights_enabled_at is not null as confirmed from waba_accounts where id = $1',
      [waba.id],
    );
    if (rows[0]?.confirmed) return;
    await this.deps.graph.enableTemplateInsights(token, waba.wabaId);
    await this.deps.pool.query(
      'update waba_accounts set template_insights_enabled_at = now() where id = $1 and template_insights_enabled_at is null',
      [waba.id],
    );
  }
}

const IdParamsSchema = z.object({
  id: z.coerce
    .number({ message: 'must be a template id' })
    .int('must be a template id')
    .positive('must be a template id'),
});

/** GET /meta/templates/{id}/clicks/: the Edit Template page's clicks. */
export function templateClicksRoutes(service: TemplateClicksService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/meta/templates/:id/clicks/',
      {
        schema: {
          tags: ['templates'],
          summary:
            'A template’s clicks over the last 90 days: WhatsApp’s count of button taps and Herald’s tracked links',
          params: IdParamsSchema,
          response: {
            200: TemplateClicksResponseSchema,
            400: ErrorResponseSchema,
            403: ErrorResponseSchema,
            404: ErrorResponseSchema,
          },
        },
      },
      async (request) => service.clicks(request.waba!, request.params.id),
    );
  };
}
