import {
  MARKETING_TTL,
  checkMediaFile,
  mediaMimeType,
  TemplatePayloadSchema,
  validateTemplatePayload,
  type TemplateDetail,
  type TemplateListQuery,
  type TemplatePayload,
  META_ERROR,
} from '@herald/contracts';
import type { Pool } from '../../db/pool';
import { uniqueViolation, withTransaction } from '../../db/transaction';
import { GraphApiError, type GraphClient } from '../../graph/graph-client';
import { HttpError } from '../../http-error';
import type { SecretBox } from '../../security/secret-box';
import type { OwnedWaba } from '../../owned-waba';
import { isMmApiOnboarded } from '../marketing-messages/index';
import { readAccountSettings } from '../settings/index';
import { mediaHeaderFormat, toMetaTemplate } from './meta-template';
import { maxPriceEdit, maxPriceOf, maxPriceRefusal, onlyMaxPriceChanged } from './template-max-price';

/** A payload's own time-to-live; null keeps Meta's default. */
const ttlOf = (payload: TemplatePayload): number | null => payload.message_send_ttl_seconds ?? null;
import { lifecycleOf, toListItem } from './template-view';
import {
  clearTemplateLimitExceeded,
  deleteTemplate,
  findMedia,
  findTemplate,
  findTemplateByMetaId,
  insertMedia,
  insertTemplate,
  listTemplates,
  templateLimitExceededAt,
  type TemplateRow,
  updateTemplate,
} from './templates-repo';

export interface UploadedFile {
  name: string;
  type: string;
  bytes: Buffer;
}

/** Meta could not be reached (network, 5xx): the template is kept as a DRAFT to submit later. */
function cloudApiDown(error: unknown): boolean {
  return error instanceof GraphApiError && (error.httpStatus === 0 || error.httpStatus >= 500);
}

/** Meta refused the request itself: its message is what the user needs to read. */
function metaRefusal(error: unknown): HttpError {
  const message = error instanceof GraphApiError ? error.message : String(error);
  return HttpError.field(400, 'template_data', `WhatsApp Cloud API: ${message}`);
}

/** A new template sent without a language gets the account's default language (Message Settings). */
function withDefaultLanguage(raw: unknown, language: string): unknown {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return raw;
  return (raw as { language?: unknown }).language === undefined ? { ...raw, language } : raw;
}

/** Message templates: local rows mirrored at the Cloud API, their media, and Meta's review. */
export class TemplatesService {
  constructor(private readonly deps: { pool: Pool; graph: GraphClient; secrets: SecretBox }) {}

  async list(waba: OwnedWaba, query: TemplateListQuery, pageUrl: (page: number) => string) {
    const [{ count, rows }, limitExceededAt] = await Promise.all([
      listTemplates(this.deps.pool, waba.id, {
        page: query.page,
        pageSize: query.page_size,
        search: query.search,
        sort: query.sort,
      }),
      templateLimitExceededAt(this.deps.pool, waba.id),
    ]);
    const lastPage = Math.max(1, Math.ceil(count / query.page_size));
    return {
      count,
      currentPage: query.page,
      next: query.page < lastPage ? pageUrl(query.page + 1) : null,
      previous: query.page > 1 ? pageUrl(Math.min(query.page - 1, lastPage)) : null,
      results: rows.map(toListItem),
      template_limit_exceeded_at: limitExceededAt?.toISOString() ?? null,
    };
  }

  async detail(waba: OwnedWaba, id: number): Promise<TemplateDetail> {
    const row = await this.require(waba, id);
    const dynamic = row.dynamic_variables as {
      header_variable?: Record<string, string>;
      body_variable?: Record<string, string>;
    };
    return {
      id: row.id,
      template_id: row.meta_template_id,
      status: row.status,
      rejected_reason: row.rejected_reason,
      name: row.name,
      language: row.language,
      category: row.category,
      components: row.components as TemplateDetail['components'],
      dynamic_variables: {
        // Read for edit, the header variable is a list of one object mapping '1' to a column.
        ...(dynamic.header_variable ? { header_variables: [dynamic.header_variable] } : {}),
        ...(dynamic.body_variable ? { body_variable: dynamic.body_variable } : {}),
      },
      static_variables: row.static_variables as TemplateDetail['static_variables'],
      media_url: row.media_id ? `/meta/templates/media/${row.media_id}/` : null,
      message_send_ttl_seconds: row.message_send_ttl_seconds,
      max_price_bid_amount: row.max_price_bid_amount,
      ...lifecycleOf(row),
    };
  }

  async create(waba: OwnedWaba, rawPayload: unknown, file: UploadedFile | null) {
    const settings = await readAccountSettings(this.deps.pool, waba.id);
    const payload = this.validate(withDefaultLanguage(rawPayload, settings.default_language), {
      hasHeaderFile: file !== null,
    });
    const media = this.checkMedia(payload, file);
    await this.checkMaxPrice(waba, payload, null);
    if (settings.require_template_approval) {
      // 'Require Approval for New Templates': Meta sees nothing until someone presses Submit on the draft
      // (submit uploads the stored header file then).
      const id = await this.store(waba, payload, media, null, null);
      return toListItem((await findTemplate(this.deps.pool, waba.id, id))!);
    }
    const token = this.deps.secrets.open(waba.businessTokenEncrypted);
    let headerHandle: string | null = null;
    let created: { id: string; status: string } | null = null;
    try {
      if (media) headerHandle = await this.deps.graph.uploadMedia(token, media);
      created = await this.deps.graph.createTemplate(
        token,
        waba.wabaId,
        toMetaTemplate(payload, headerHandle),
      );
    } catch (error) {
      if (!cloudApiDown(error)) throw metaRefusal(error);
    }
    const id = await this.undoAtMetaIfFails(token, waba, payload.name, created, () =>
      this.store(waba, payload, media, headerHandle, created),
    );
    if (created) await clearTemplateLimitExceeded(this.deps.pool, waba.id);
    return toListItem((await findTemplate(this.deps.pool, waba.id, id))!);
  }

  async update(waba: OwnedWaba, id: number, rawPayload: unknown, file: UploadedFile | null) {
    const existing = await this.require(waba, id);
    // Meta keeps sending a locked template but refuses any edit of it.
    if (existing.locked)
      throw HttpError.field(409, 'status', 'This template is locked by Meta and cannot be edited');
    const payload = this.validate(rawPayload, { hasHeaderFile: file !== null || existing.media_id !== null });
    const media = this.checkMedia(payload, file);
    await this.checkMaxPrice(waba, payload, existing);
    const priceOnly = media === null && onlyMaxPriceChanged(payload, existing);
    let status = existing.status;
    let headerHandle: string | null = null;
    if (existing.meta_template_id) {
      // Meta keeps name and language for the life of a template.
      if (payload.name !== existing.name)
        throw HttpError.field(400, 'name', 'The name of a submitted template cannot change');
      if (payload.language !== existing.language) {
        throw HttpError.field(400, 'language', 'The language of a submitted template cannot change');
      }
      const token = this.deps.secrets.open(waba.businessTokenEncrypted);
      try {
        if (media) headerHandle = await this.deps.graph.uploadMedia(token, media);
        else if (mediaHeaderFormat(payload) && existing.media_id)
          headerHandle = await this.reuploadStoredMedia(waba, token, existing.media_id);
        const meta = toMetaTemplate(payload, headerHandle);
        if (priceOnly) {
          // Meta does not review a max price: sent alone, the template keeps its status.
          await this.deps.graph.editTemplate(token, existing.meta_template_id, maxPriceEdit(payload, null));
        } else
          await this.deps.graph.editTemplate(token, existing.meta_template_id, {
            components: meta.components,
            ...(payload.category !== existing.category ? { category: payload.category } : {}),
            // Meta changes a marketing template's TTL through the same edit; Meta's default again is its
            // maximum. A template leaving marketing sends none (Meta's bounds differ for the others).
            ...(payload.category === 'MARKETING' && ttlOf(payload) !== existing.message_send_ttl_seconds
              ? { message_send_ttl_seconds: ttlOf(payload) ?? MARKETING_TTL.defaultSeconds }
              : {}),
            ...maxPriceEdit(payload, existing.max_price_bid_amount),
          });
      } catch (error) {
        if (cloudApiDown(error))
          throw new HttpError(502, 'The WhatsApp Cloud API could not be reached; try again.');
        throw metaRefusal(error);
      }
      if (!priceOnly) status = 'PENDING';
    }
    await withTransaction(this.deps.pool, async (client) => {
      const mediaId = media ? await insertMedia(client, waba.id, { ...media, headerHandle }) : null;
      await updateTemplate(client, waba.id, id, {
        name: payload.name,
        language: payload.language,
        category: payload.category,
        status,
        metaTemplateId: existing.meta_template_id,
        components: payload.components,
        staticVariables: payload.static_variables,
        dynamicVariables: payload.dynamic_variables,
        mediaId,
        timeToLiveSeconds: ttlOf(payload),
        maxPriceBidAmount: maxPriceOf(payload),
      });
    }).catch((error) => {
      throw this.conflictFrom(error);
    });
    return toListItem((await findTemplate(this.deps.pool, waba.id, id))!);
  }

  /** Sends a DRAFT (kept while the Cloud API was unreachable) for review. */
  async submit(waba: OwnedWaba, id: number) {
    const row = await this.require(waba, id);
    if (row.status !== 'DRAFT')
      throw HttpError.field(409, 'status', 'Only a draft template can be submitted');
    const payload = this.validate(
      {
        name: row.name,
        language: row.language,
        category: row.category,
        components: row.components,
        static_variables: row.static_variables,
        dynamic_variables: row.dynamic_variables,
        message_send_ttl_seconds: row.message_send_ttl_seconds,
        max_price_bid_amount: row.max_price_bid_amount,
      },
      { hasHeaderFile: row.media_id !== null },
    );
    const token = this.deps.secrets.open(waba.businessTokenEncrypted);
    let created: { id: string; status: string };
    try {
      const headerHandle =
        mediaHeaderFormat(payload) && row.media_id
          ? await this.reuploadStoredMedia(waba, token, row.media_id)
          : null;
      created = await this.deps.graph.createTemplate(
        token,
        waba.wabaId,
        toMetaTemplate(payload, headerHandle),
      );
    } catch (error) {
      if (cloudApiDown(error))
        throw new HttpError(502, 'The WhatsApp Cloud API could not be reached; the template stays a draft.');
      throw metaRefusal(error);
    }
    await this.undoAtMetaIfFails(token, waba, row.name, created, () =>
      this.deps.pool.query(
        'update templates set meta_template_id = $3, status = $4, updated_at = now() where waba_account_id = $1 and id = $2',
        [waba.id, id, created.id, created.status ?? 'PENDING'],
      ),
    );
    return toListItem((await findTemplate(this.deps.pool, waba.id, id))!);
  }

  /** Deletes at the Cloud API (this language only) and here. `templateId` is Meta's id, or Herald's for a draft. */
  async remove(waba: OwnedWaba, templateId: string, templateName: string): Promise<void> {
    const row =
      (await findTemplateByMetaId(this.deps.pool, waba.id, templateId)) ??
      (/^\d{1,15}$/.test(templateId) && Number(templateId) <= Number.MAX_SAFE_INTEGER
        ? await findTemplate(this.deps.pool, waba.id, Number(templateId))
        : undefined);
    if (!row || row.name !== templateName) throw HttpError.field(404, 'template_id', 'Template not found');
    if (row.meta_template_id) {
      const token = this.deps.secrets.open(waba.businessTokenEncrypted);
      try {
        await this.deps.graph.deleteTemplate(token, waba.wabaId, row.name, row.meta_template_id);
      } catch (error) {
        if (cloudApiDown(error))
          throw new HttpError(502, 'The WhatsApp Cloud API could not be reached; nothing was deleted.');
        // Already gone at Meta (code 100): the local row goes too.
        if (!(error instanceof GraphApiError && error.code === META_ERROR.invalidParameter))
          throw metaRefusal(error);
      }
    }
    await deleteTemplate(this.deps.pool, waba.id, row.id);
    if (row.meta_template_id) await clearTemplateLimitExceeded(this.deps.pool, waba.id);
  }

  async media(waba: OwnedWaba, mediaId: number) {
    const media = await findMedia(this.deps.pool, waba.id, mediaId);
    if (!media) throw HttpError.field(404, 'media_id', 'Media not found');
    return media;
  }

  private validate(raw: unknown, options: { hasHeaderFile: boolean }): TemplatePayload {
    const problems = validateTemplatePayload(raw, options);
    if (problems.length > 0) {
      const detail = problems.map((p) => `${p.field}: ${p.message}`).join('; ');
      throw new HttpError(400, `Invalid template: ${detail}`, problems);
    }
    const parsed = TemplatePayloadSchema.safeParse(raw);
    if (!parsed.success) {
      const errors = parsed.error.issues.map((issue) => ({
        field: issue.path.join('.') || 'template_data',
        message: issue.message,
      }));
      throw new HttpError(
        400,
        `Invalid template: ${errors.map((e) => `${e.field}: ${e.message}`).join('; ')}`,
        errors,
      );
    }
    return parsed.data;
  }

  /** A max price Meta would not take is refused before Meta is called (template-max-price.ts). */
  private async checkMaxPrice(waba: OwnedWaba, payload: TemplatePayload, existing: TemplateRow | null) {
    const problem = await maxPriceRefusal(payload, existing, () => isMmApiOnboarded(this.deps.pool, waba.id));
    if (problem) throw HttpError.field(400, 'max_price_bid_amount', problem);
  }

  private checkMedia(payload: TemplatePayload, file: UploadedFile | null): UploadedFile | null {
    const format = mediaHeaderFormat(payload);
    if (!format || !file) return null;
    const problem = checkMediaFile({
      format,
      filename: file.name,
      mimeType: file.type,
      size: file.bytes.length,
    });
    if (problem) throw HttpError.field(problem.status, problem.field, problem.message);
    return {
      ...file,
      type: mediaMimeType({ format, filename: file.name, mimeType: file.type }) ?? file.type,
    };
  }

  /**
   * Runs the local write that follows a template's creation at Meta. When it fails (a name taken by a local
   * draft, the database gone), the template is deleted at Meta again before the error is answered, so a
   * failed request leaves nothing there that Herald does not know. An edit needs no such undo: every check
   * that can refuse it runs before Meta is called.
   */
  private async undoAtMetaIfFails<T>(
    token: string,
    waba: OwnedWaba,
    name: string,
    created: { id: string } | null,
    write: () => Promise<T>,
  ): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (created) {
        // The local failure is what the caller must hear; an undo Meta refuses changes nothing about it.
        await this.deps.graph.deleteTemplate(token, waba.wabaId, name, created.id).catch(() => undefined);
      }
      throw error;
    }
  }

  private async reuploadStoredMedia(waba: OwnedWaba, token: string, mediaId: number): Promise<string> {
    const stored = await findMedia(this.deps.pool, waba.id, mediaId);
    if (!stored) throw HttpError.field(400, 'header_file', 'The header file is missing; upload it again');
    return this.deps.graph.uploadMedia(token, {
      name: stored.file_name,
      type: stored.mime_type,
      bytes: stored.content,
    });
  }

  private async store(
    waba: OwnedWaba,
    payload: TemplatePayload,
    media: UploadedFile | null,
    headerHandle: string | null,
    created: { id: string; status: string } | null,
  ): Promise<number> {
    try {
      return await withTransaction(this.deps.pool, async (client) => {
        const mediaId = media ? await insertMedia(client, waba.id, { ...media, headerHandle }) : null;
        return insertTemplate(client, waba.id, {
          name: payload.name,
          language: payload.language,
          category: payload.category,
          status: created ? (created.status ?? 'PENDING') : 'DRAFT',
          metaTemplateId: created?.id ?? null,
          components: payload.components,
          staticVariables: payload.static_variables,
          dynamicVariables: payload.dynamic_variables,
          mediaId,
          timeToLiveSeconds: ttlOf(payload),
          maxPriceBidAmount: maxPriceOf(payload),
        });
      });
    } catch (error) {
      throw this.conflictFrom(error);
    }
  }

  private conflictFrom(error: unknown): unknown {
    if (uniqueViolation(error) === 'templates_waba_account_id_name_language_key') {
      return HttpError.field(409, 'name', 'A template with this name and language already exists');
    }
    return error;
  }

  private async require(waba: OwnedWaba, id: number): Promise<TemplateRow> {
    const row = await findTemplate(this.deps.pool, waba.id, id);
    if (!row) throw HttpError.field(404, 'id', 'Template not found');
    return row;
  }
}
