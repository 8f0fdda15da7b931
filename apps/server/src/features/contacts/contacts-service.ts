import {
  CONTACT_BASE_COLUMNS,
  type Contact,
  type ContactFilterQuery,
  normalizePhoneNumber,
  type Tag,
} from '@herald/contracts';
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';
import type { PoolClient } from 'pg';
import type { Pool } from '../../db/pool';
import { uniqueViolation, withTransaction } from '../../db/transaction';
import { HttpError } from '../../http-error';
import type { Multipart } from '@fastify/multipart';
import { ContactImport, type ImportHooks } from './contact-import';
import { type ImportAnswer, importUpload } from './import-upload';
import * as repo from './contacts-repo';
import { countAccountTags, setContactTags } from './tags-repo';
import { TagsService } from './tags-service';
import { findSegment, segmentWhereSql } from '../segments/index';

export interface ContactPage {
  count: number;
  results: Contact[];
  /** Whether a page follows this one. */
  hasNext: boolean;
}

/** The add/edit form's fields, with the optional other columns, tags and default country. */
export interface ContactInput extends repo.ContactDetails {
  customer_name: string;
  whatsapp_number: string;
  tags?: string[] | undefined;
  default_country?: CountryCode | undefined;
}

/** The form's other columns as the repo writes them; custom columns only those the account's imports made. */
async function detailsOf(db: PoolClient, wabaId: number, input: ContactInput): Promise<repo.ContactDetails> {
  const { age, gender, address, post_code, email, attributes } = input;
  if (attributes) {
    const known = new Set(await repo.customColumns(db, wabaId));
    const unknown = Object.keys(attributes).find((column) => !known.has(column));
    if (unknown !== undefined) {
      throw HttpError.field(
        400,
        `attributes.${unknown}`,
        `${unknown} is not a column of this account's contacts`,
      );
    }
  }
  return { age, gender, address, post_code, email, attributes };
}

function phoneNumber(input: ContactInput): string {
  const phone = normalizePhoneNumber(input.whatsapp_number, input.default_country);
  if (!phone.ok) throw HttpError.field(400, 'whatsapp_number', phone.message);
  return phone.e164;
}

/** Names the contact that has the number as the user knows it (name and number), never by internal id. */
function duplicate(existing: { id: number; name: string } | undefined, number: string): HttpError {
  const shown = parsePhoneNumberFromString(number)?.formatInternational() ?? number;
  return HttpError.field(
    409,
    'whatsapp_number',
    existing
      ? `${shown} already belongs to ${existing.name}`
      : 'This number already belongs to another contact',
  );
}

/** Each name once, compared as tags are (case-insensitively); the first spelling wins. */
function distinctNames(names: string[]): string[] {
  const seen = new Map<string, string>();
  for (const name of names) if (!seen.has(name.toLowerCase())) seen.set(name.toLowerCase(), name);
  return [...seen.values()];
}

const notFound = () => HttpError.field(404, 'id', 'Contact not found');

/** Contacts of one account: every method takes the account's internal id first. */
export class ContactsService {
  /** Bulk tag changes, rename and delete (routes reach them through the contacts service). */
  readonly tagging: TagsService;

  constructor(private readonly deps: { pool: Pool }) {
    this.tagging = new TagsService(deps);
  }

  /**
   * One page. The unfiltered total comes from contact_counts (no count(*) over a million rows); a search is
   * counted exactly through the trigram index. A page past the end answers no rows, not an error.
   */
  async list(wabaId: number, query: ContactFilterQuery): Promise<ContactPage> {
    const { pool } = this.deps;
    const limit = query.page_size;
    const offset = (query.page - 1) * limit;
    const search = query.search?.trim();
    // Another account's tag is refused like one that never existed: its id tells nothing either way.
    if (
      query.tag_ids?.length &&
      (await countAccountTags(pool, wabaId, query.tag_ids)) !== query.tag_ids.length
    )
      throw HttpError.field(404, 'tag_ids', 'One or more of these tags do not exist in this account');
    const segment = query.segment_id !== undefined ? await findSegment(pool, wabaId, query.segment_id) : null;
    if (segment === undefined)
      throw HttpError.field(404, 'segment_id', 'This segment does not exist in this account');
    const filter: repo.ContactFilter = {
      patterns: search ? repo.searchPatterns(search) : undefined,
      tagIds: query.tag_ids,
      optedOut: query.opted_out,
      segmentSql: segment ? segmentWhereSql(segment.definition, 'contacts') : undefined,
    };
    const count = repo.isFiltered(filter)
      ? await repo.countMatching(pool, wabaId, filter)
      : await repo.contactTotal(pool, wabaId);
    const results = offset < count ? await repo.listContacts(pool, wabaId, { limit, offset, filter }) : [];
    return { count, results, hasNext: offset + limit < count };
  }

  async create(wabaId: number, input: ContactInput): Promise<Contact> {
    const number = phoneNumber(input);
    return withTransaction(this.deps.pool, async (db) => {
      const details = await detailsOf(db, wabaId, input);
      const contact = await repo.insertContact(db, wabaId, { name: input.customer_name, number, ...details });
      if (!contact) throw duplicate(await repo.findContactByNumber(db, wabaId, number), number);
      const tagged = await this.withFormTags(db, wabaId, contact, input.tags);
      // Last, as an import does: the total's row is held only until the commit, never while waiting for a tag
      // an import holds, so the two cannot deadlock.
      await repo.adjustContactTotal(db, wabaId, 1);
      return tagged;
    });
  }

  async update(wabaId: number, input: ContactInput & { customer_id: number }): Promise<Contact> {
    const number = phoneNumber(input);
    try {
      return await withTransaction(this.deps.pool, async (db) => {
        const contact = await repo.updateContact(db, wabaId, input.customer_id, {
          name: input.customer_name,
          number,
          ...(await detailsOf(db, wabaId, input)),
        });
        if (!contact) throw notFound();
        return this.withFormTags(db, wabaId, contact, input.tags);
      });
    } catch (error) {
      if (uniqueViolation(error) === undefined) throw error;
      throw duplicate(await repo.findContactByNumber(this.deps.pool, wabaId, number), number);
    }
  }

  /** Sets the form's tags on the contact just written (and locked) in this transaction, when it sent any. */
  private async withFormTags(
    db: PoolClient,
    wabaId: number,
    contact: Contact,
    tags: string[] | undefined,
  ): Promise<Contact> {
    if (tags === undefined) return contact;
    await setContactTags(db, wabaId, contact.id, distinctNames(tags));
    return (await repo.findContact(db, wabaId, contact.id))!;
  }

  async remove(wabaId: number, id: number): Promise<void> {
    await withTransaction(this.deps.pool, async (db) => {
      if (!(await repo.deleteContact(db, wabaId, id))) throw notFound();
      await repo.adjustContactTotal(db, wabaId, -1);
    });
  }

  tags(wabaId: number): Promise<Tag[]> {
    return repo.listTags(this.deps.pool, wabaId);
  }

  async columns(wabaId: number): Promise<string[]> {
    const extra = await repo.extraColumns(this.deps.pool, wabaId);
    return [
      ...CONTACT_BASE_COLUMNS,
      ...extra.filter((name) => !(CONTACT_BASE_COLUMNS as readonly string[]).includes(name)),
    ];
  }

  /** A new import session: the caller feeds it the upload, then commits or closes it (see ContactImport). */
  startImport(wabaId: number, hooks?: ImportHooks): ContactImport {
    return new ContactImport(this.deps.pool, wabaId, hooks);
  }

  /** One CSV import from a multipart request's parts (see importUpload). */
  importUpload(wabaId: number, parts: AsyncIterable<Multipart>, limitText: string): Promise<ImportAnswer> {
    return importUpload(this.startImport(wabaId), parts, limitText);
  }
}
