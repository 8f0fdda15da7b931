import type { FastifyInstance } from 'fastify';
import { authenticate, seesBusiness } from '../auth';
import type { SandboxContext } from '../context';
import { unsupportedRequest } from '../errors';
import { pickFields } from '../fields';
import { phoneNumberNode } from '../graph-objects';
import { businessNode } from '../marketing-messages/onboarding-fields';
import { templateNode } from '../templates/template-node';
import { grantedMedia, mediaNode } from './media';
import { wabaWithFields } from './pricing-analytics';
import { editTemplateWithLinkTracking, postWabaNode } from './template-analytics';
import { grantedTemplate } from './template-node-routes';
import { appendUpload, uploadStatus } from './uploads';

interface IdParams {
  Params: { id: string };
  Querystring: { fields?: string; phone_number_id?: string };
}

const isUploadId = (id: string) => id.startsWith('upload:');

/**
 * `/{id}` names whichever node the id is, as in Graph: a WABA, its business portfolio, a phone number, a
 * template, an upload.
 */
export function registerNodeRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.get<IdParams>('/:id', async (request) => {
    const { id } = request.params;
    if (isUploadId(id)) return uploadStatus(ctx, request, id);
    const token = authenticate(request, ctx.state);
    const waba = ctx.state.findWaba(id);
    if (waba && token.wabaIds.includes(waba.id)) return wabaWithFields(ctx, waba, request.query.fields);
    if (seesBusiness(token, ctx.state, id)) return businessNode(ctx, id, request.query.fields);
    const phone = ctx.state.findPhoneNumber(id);
    if (phone && token.wabaIds.includes(phone.wabaId)) {
      return pickFields(phoneNumberNode(phone), request.query.fields);
    }
    const template = grantedTemplate(ctx, token, id);
    if (template) return pickFields(templateNode(template), request.query.fields);
    const media = grantedMedia(ctx, token, id, request.query.phone_number_id);
    if (media) return mediaNode(ctx, request, media);
    throw unsupportedRequest('GET', id);
  });

  app.post<IdParams>('/:id', async (request) => {
    const { id } = request.params;
    if (isUploadId(id)) return appendUpload(ctx, request, id);
    const token = authenticate(request, ctx.state);
    const waba = ctx.state.findWaba(id);
    if (waba && token.wabaIds.includes(waba.id)) {
      const updated = await postWabaNode(ctx, request, waba);
      if (updated) return updated;
    }
    const template = grantedTemplate(ctx, token, id);
    if (template) return editTemplateWithLinkTracking(ctx, request, token, template);
    throw unsupportedRequest('POST', id);
  });
}
