import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authenticate, grantedWaba } from '../auth';
import type { SandboxContext } from '../context';
import { missingParameter } from '../errors';
import { pickFields } from '../fields';
import { requestParams, stringParam } from '../request-params';
import type { AccessToken } from '../state';
import { duplicateTemplate, templateLimitReached, templateNotFound } from '../templates/template-errors';
import { templateNode } from '../templates/template-node';
import type { HandleResolver } from '../templates/validate-template';
import { applyLinkTrackingOptOut, readLinkTrackingOptOut } from '../templates/template-link-tracking';
import { validateTemplateDefinition } from '../templates/validate-template';
import { requireMmApiOnboarding } from '../templates/max-price';

interface IdParams {
  Params: { id: string };
  Querystring: Record<string, string | undefined>;
}

/** Meta's cap on template names per WABA (a name counts once across its languages). */
const MAX_TEMPLATES_PER_WABA = 250;
const DEFAULT_PAGE_SIZE = 25;

const cursorOf = (id: string) => Buffer.from(id).toString('base64url');
const idOfCursor = (cursor: string) => Buffer.from(cursor, 'base64url').toString();

/** Header handles are good for templates of the app that uploaded the file, once the upload is complete. */
export function handleResolver(ctx: SandboxContext, token: AccessToken): HandleResolver {
  return (handle) => {
    const session = ctx.state.uploads.findByHandle(handle);
    if (!session || session.appId !== token.appId) return undefined;
    return { fileType: session.fileType, fileLength: session.fileLength };
  };
}

function nextPageUrl(request: FastifyRequest, after: string): string {
  const [path = '/', search = ''] = request.originalUrl.split('?');
  const query = new URLSearchParams(search);
  query.delete('access_token');
  query.set('after', after);
  return `${request.protocol}://${request.host}${path}?${query.toString()}`;
}

function listOf(values: string | undefined): string[] | undefined {
  if (values === undefined || values.trim() === '') return undefined;
  return values.split(',').map((v) => v.trim().toUpperCase());
}

export function registerMessageTemplateRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.post<IdParams>('/:id/message_templates', async (request) => {
    const token = authenticate(request, ctx.state);
    const waba = grantedWaba(token, ctx.state, request.params.id, 'POST');
    const params = requestParams(request);
    const definition = validateTemplateDefinition(params, handleResolver(ctx, token));
    const optedOut = readLinkTrackingOptOut(params);
    if (definition.maxPriceBidAmount !== undefined) {
      requireMmApiOnboarding(ctx.state.marketingMessages.isOnboarded(waba.id, waba.businessId));
    }
    const templates = ctx.state.templates;
    if (templates.findByNameAndLanguage(waba.id, definition.name, definition.language)) {
      throw duplicateTemplate(definition.language);
    }
    const names = templates.namesOf(waba.id);
    if (!names.has(definition.name) && names.size >= MAX_TEMPLATES_PER_WABA) {
      throw templateLimitReached(MAX_TEMPLATES_PER_WABA);
    }
    const template = templates.create(ctx.state.newId(), waba.id, definition);
    applyLinkTrackingOptOut(template, optedOut);
    ctx.reviews.schedule(template.id);
    const result = { id: template.id, status: template.status, category: template.category };
    await ctx.log.append({ method: 'POST', path: `/${waba.id}/message_templates`, body: params, result });
    return result;
  });

  app.get<IdParams>('/:id/message_templates', async (request) => {
    const token = authenticate(request, ctx.state);
    const waba = grantedWaba(token, ctx.state, request.params.id, 'GET');
    const { fields, limit, after, name, status, category, language } = request.query;
    const statuses = listOf(status);
    const categories = listOf(category);
    const all = ctx.state.templates
      .ofWaba(waba.id)
      .filter((t) => name === undefined || t.name.includes(name.toLowerCase()))
      .filter((t) => statuses === undefined || statuses.includes(t.status))
      .filter((t) => categories === undefined || categories.includes(t.category))
      .filter((t) => language === undefined || t.language === language);
    const pageSize =
      limit !== undefined && /^\d+$/.test(limit) ? Math.max(1, Number(limit)) : DEFAULT_PAGE_SIZE;
    const start = after === undefined ? 0 : all.findIndex((t) => t.id === idOfCursor(after)) + 1;
    const page = all.slice(start, start + pageSize);
    const first = page[0];
    const last = page.at(-1);
    const hasMore = start + pageSize < all.length && last !== undefined;
    return {
      data: page.map((t) => pickFields(templateNode(t), fields)),
      paging: {
        cursors: { before: first ? cursorOf(first.id) : '', after: last ? cursorOf(last.id) : '' },
        ...(hasMore ? { next: nextPageUrl(request, cursorOf(last.id)) } : {}),
      },
    };
  });

  app.delete<IdParams>('/:id/message_templates', async (request) => {
    const token = authenticate(request, ctx.state);
    const waba = grantedWaba(token, ctx.state, request.params.id, 'DELETE');
    const params = requestParams(request);
    const name = stringParam(params, 'name');
    if (name === undefined || name === '') throw missingParameter('name');
    const hsmId = stringParam(params, 'hsm_id');
    const doomed = ctx.state.templates
      .ofWaba(waba.id)
      .filter((t) => t.name === name && (hsmId === undefined || t.id === hsmId));
    if (doomed.length === 0) throw templateNotFound(name);
    for (const t of doomed) ctx.reviews.cancel(t.id);
    ctx.state.templates.remove(doomed.map((t) => t.id));
    const result = { success: true };
    await ctx.log.append({
      method: 'DELETE',
      path: `/${waba.id}/message_templates`,
      body: params,
      result: { ...result, deleted_ids: doomed.map((t) => t.id) },
    });
    return result;
  });
}
