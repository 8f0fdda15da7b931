import {
  ErrorResponseSchema,
  TemplateSyncResponseSchema,
  type TemplateSyncResponse,
} from '@herald/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Pool } from '../../db/pool';
import { GraphApiError, type GraphClient } from '../../graph/graph-client';
import { HttpError } from '../../http-error';
import type { SecretBox } from '../../security/secret-box';
import type { OwnedWaba } from '../../owned-waba';

/**
 * 'Refresh from Meta' on the templates list (decision 038): review webhooks are the normal path, but one can
 * be missed (the app unsubscribed, an endpoint down for longer than Meta retries), and then a template would
 * read PENDING for ever. This re-reads every template of the account from Meta and applies what changed in
 * one statement. Only Meta's templates that Herald holds are touched (matched by Meta's id within the
 * caller's account); a status change moves 'Last Updated Time' as a review webhook does, a quality change
 * does not.
 */
export async function syncTemplatesFromMeta(
  deps: { pool: Pool; graph: GraphClient; secrets: SecretBox },
  waba: OwnedWaba,
): Promise<TemplateSyncResponse> {
  const token = deps.secrets.open(waba.businessTokenEncrypted);
  let remote: Awaited<ReturnType<GraphClient['listTemplates']>>;
  try {
    remote = await deps.graph.listTemplates(token, waba.wabaId);
  } catch (error) {
    if (error instanceof GraphApiError && (error.httpStatus === 0 || error.httpStatus >= 500)) {
      throw new HttpError(502, 'The WhatsApp Cloud API could not be reached; try again.');
    }
    throw new HttpError(502, `WhatsApp Cloud API: ${error instanceof Error ? error.message : String(error)}`);
  }
  const ids = remote.map((t) => String(t.id));
  const statuses = remote.map((t) => t.status);
  // Meta answers 'NONE' for a template that is not rejected: Herald stores no reason then.
  const reasons = remote.map((t) =>
    t.status === 'REJECTED' && t.rejected_reason && t.rejected_reason !== 'NONE' ? t.rejected_reason : null,
  );
  // 'UNKNOWN' (a new template's score) says nothing the list does not already show for no score.
  const qualities = remote.map((t) =>
    t.quality_score?.score && t.quality_score.score !== 'UNKNOWN' ? t.quality_score.score : null,
  );
  const qualityDates = remote.map((t) => t.quality_score?.date ?? null);

  const { rows } = await deps.pool.query<{ checked: number; updated: number }>(
    `with remote as (
       select * from unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[])
         as r(meta_id, status, reason, quality, quality_date)
     ), held as (
       select t.id, r.* from templates t join remote r on r.meta_id = t.meta_template_id
        where t.waba_account_id = $1
     ), changed as (
       update templates t
          set updated_at = case when (t.status, coalesce(t.rejected_reason, ''))
                                     is distinct from (h.status, coalesce(h.reason, ''))
                                then now() else t.updated_at end,
              status = h.status,
              rejected_reason = h.reason,
              quality_score = coalesce(h.quality, t.quality_score),
              quality_score_date = case when h.quality is null then t.quality_score_date
                                        else coalesce(to_timestamp(h.quality_date), now()) end
         from held h
        where t.id = h.id and t.waba_account_id = $1
          and ((t.status, coalesce(t.rejected_reason, '')) is distinct from (h.status, coalesce(h.reason, ''))
               or (h.quality is not null and t.quality_score is distinct from h.quality))
       returning t.id
     )
     select (select count(*)::int from held) as checked, (select count(*)::int from changed) as updated`,
    [waba.id, ids, statuses, reasons, qualities, qualityDates],
  );
  return rows[0]!;
}

const errors = { 400: ErrorResponseSchema, 403: ErrorResponseSchema, 502: ErrorResponseSchema };

/** POST /meta/templates/sync/: 'Refresh from Meta' on the templates list. */
export function templateSyncRoutes(deps: {
  pool: Pool;
  graph: GraphClient;
  secrets: SecretBox;
}): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/meta/templates/sync/',
      {
        schema: {
          tags: ['templates'],
          summary: 'Refresh from Meta: re-read every template’s status, rejected reason and quality score',
          response: { 200: TemplateSyncResponseSchema, ...errors },
        },
      },
      async (request) => syncTemplatesFromMeta(deps, request.waba!),
    );
  };
}
