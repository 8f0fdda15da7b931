import {
  CONTACT_BASE_COLUMNS,
  type Contact,
  type ContactListQuery,
  normalizePhoneNumber,
  type Tag,
} from '@herald/contracts';
import type { Pool } from '../../db/pool';
import { uniqueViolation, withTransaction } from '../../db/transaction';
import { HttpError } from '../../http-error';
import { ContactImport } from './contact-import';
import * as repo from './contacts-repo';

export interface ContactPage {
  count: number;
  results: Contact[];
  /** Whether a page follows this one. */
  hasNext: boolean;
}

function phoneNumber(input: string): string {
  const phone = normalizePhoneNumber(input);
  if (!phone.ok) throw HttpError.field(400, 'whatsapp_number', phone.message);
  return phone.e164;
}

function duplicate(existing: { id: number; name: string } | undefined): HttpError {
  return HttpError.field(
    409,
    'whatsapp_number',
    existing
      ? `This number already belongs to contact ${existing.id} (${existing.name})`
      : 'This number already belongs to another contact',
  );
}

const notFound = () => HttpError.field(404, 'id', 'Contact not found');

/** Contacts of one account (spec §2 Contacts): every method takes the account's internal id first. */
export class ContactsService {
  constructor(private readonly deps: { pool: Pool }) {}

  /**
   * One page. The unfiltered total comes from contact_counts (no count(*) over a million rows); a search is
   * counted exactly through the trigram index. A page past the end answers no rows, not an error.
   */
  async list(wabaId: number, query: ContactListQuery): Promise<ContactPage> {
    const { pool } = this.deps;
    const limit = query.page_size;
    const offset = (query.page - 1) * limit;
    const search = query.search?.trim();
    const patterns = search ? repo.searchPatterns(search) : undefined;
    const count = patterns
      ? await repo.countMatching(pool, wabaId, patterns)
      : await repo.contactTotal(pool, wabaId);
    const results = offset < count ? await repo.listContacts(pool, wabaId, { limit, offset, patterns }) : [];
    return { count, results, hasNext: offset + limit < count };
  }

  async create(wabaId: number, input: { customer_name: string; whatsapp_number: string }): Promise<Contact> {
    const number = phoneNumber(input.whatsapp_number);
    return withTransaction(this.deps.pool, async (db) => {
      await repo.lockContactWrites(db, wabaId, 'edit');
      const contact = await repo.insertContact(db, wabaId, { name: input.customer_name, number });
      if (!contact) throw duplicate(await repo.findContactByNumber(db, wabaId, number));
      await repo.adjustContactTotal(db, wabaId, 1);
      return contact;
    });
  }

  async update(
    wabaId: number,
    input: { customer_id: number; customer_name: string; whatsapp_number: string },
  ): Promise<Contact> {
    const number = phoneNumber(input.whatsapp_number);
    try {
      return await withTransaction(this.deps.pool, async (db) => {
        await repo.lockContactWrites(db, wabaId, 'edit');
        const contact = await repo.updateContact(db, wabaId, input.customer_id, {
          name: input.customer_name,
          number,
        });
        if (!contact) throw notFound();
        return contact;
      });
    } catch (error) {
      if (uniqueViolation(error) === undefined) throw error;
      throw duplicate(await repo.findContactByNumber(this.deps.pool, wabaId, number));
    }
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
  startImport(wabaId: number): ContactImport {
    return new ContactImport(this.deps.pool, wabaId);
  }
}
