import type { BulkTagResult, Tag } from '@herald/contracts';
import type { Pool } from '../../db/pool';
import { uniqueViolation, withTransaction } from '../../db/transaction';
import { HttpError } from '../../http-error';
import * as repo from './tags-repo';

const tagNotFound = (field: string) => HttpError.field(404, field, 'Tag not found');

/** Thrown inside the transaction so the tag a refused bulk add created is rolled back with it. */
function notAllTheAccounts(requested: number, matched: number): HttpError {
  const missing = requested - matched;
  return HttpError.field(
    404,
    'contact_ids',
    `${missing} of the selected contacts ${missing === 1 ? 'is' : 'are'} not in this account; nothing was changed`,
  );
}

const unique = (ids: number[]) => [...new Set(ids)];

/**
 * Tag management of one account: bulk add and remove (one statement each, however many
 * contacts), rename and delete with the number of contacts each affects.
 */
export class TagsService {
  constructor(private readonly deps: { pool: Pool }) {}

  /** All or nothing: a selection with a contact of another account (or a deleted one) changes nothing. */
  async addToContacts(wabaId: number, contactIds: number[], tagName: string): Promise<BulkTagResult> {
    const ids = unique(contactIds);
    return withTransaction(this.deps.pool, async (db) => {
      // An import tagging with this tag links its contacts chunk by chunk, and these links could meet its
      // links in the other order and deadlock: wait for it here, before linking (it holds the tag FOR KEY SHARE).
      await repo.lockTagForLinking(db, wabaId, tagName);
      const done = await repo.addTagToContacts(db, wabaId, ids, tagName);
      if (done.matched !== ids.length) throw notAllTheAccounts(ids.length, done.matched);
      return { tag: done.tag!, changed: done.changed };
    });
  }

  async removeFromContacts(wabaId: number, contactIds: number[], tagId: number): Promise<BulkTagResult> {
    const ids = unique(contactIds);
    return withTransaction(this.deps.pool, async (db) => {
      const done = await repo.removeTagFromContacts(db, wabaId, ids, tagId);
      if (!done.tag) throw tagNotFound('tag_id');
      if (done.matched !== ids.length) throw notAllTheAccounts(ids.length, done.matched);
      return { tag: done.tag, changed: done.changed };
    });
  }

  async rename(wabaId: number, tagId: number, name: string): Promise<Tag> {
    try {
      const tag = await repo.renameTag(this.deps.pool, wabaId, tagId, name);
      if (!tag) throw tagNotFound('id');
      return tag;
    } catch (error) {
      if (uniqueViolation(error) === undefined) throw error;
      throw HttpError.field(409, 'name', `A tag named "${name}" already exists`);
    }
  }

  /** Answers the deleted tag with the number of contacts it was taken off. */
  async remove(wabaId: number, tagId: number): Promise<Tag> {
    const tag = await repo.deleteTag(this.deps.pool, wabaId, tagId);
    if (!tag) throw tagNotFound('id');
    return tag;
  }
}
