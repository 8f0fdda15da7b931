import type { BulkTagResult, Contact, ContactList, Tag } from '@herald/contracts';
import { api } from '../../lib/api';

type ContactListArgs = {
  page: number;
  pageSize: number;
  search: string;
  /** Contacts carrying any of these tags; none: every contact. */
  tagIds: number[];
  /** true: only contacts who opted out; undefined: everyone. */
  optedOut: boolean | undefined;
  /** Only the members of this saved segment; undefined: everyone. */
  segmentId: number | undefined;
  /** The selected account: it only keys the cache (the base query sends it as X-WABA-ID). */
  wabaId: string | null;
};

type ContactSaveArgs = { customer_name: string; whatsapp_number: string; tags?: string[] };

// A change to any contact can move rows between pages and change tag counts, so every mutation
// invalidates the whole list and the tags.
const CHANGED = ['Contacts', 'Tags'] as const;

/** Recipient calls. */
export const contactsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** GET /recipient/create/: one page of contacts, optionally filtered by `search`, tags, opt-out and segment. */
    getContacts: build.query<ContactList, ContactListArgs>({
      query: ({ page, pageSize, search, tagIds, optedOut, segmentId }) => ({
        url: '/recipient/create/',
        params: {
          page,
          page_size: pageSize,
          ...(search ? { search } : {}),
          ...(tagIds.length ? { tag_ids: tagIds.join(',') } : {}),
          ...(optedOut === undefined ? {} : { opted_out: String(optedOut) }),
          ...(segmentId === undefined ? {} : { segment_id: segmentId }),
        },
      }),
      providesTags: ['Contacts'],
    }),
    /** POST /recipient/create/ */
    createContact: build.mutation<Contact, ContactSaveArgs>({
      query: (body) => ({ url: '/recipient/create/', method: 'POST', body }),
      invalidatesTags: CHANGED,
    }),
    /** PUT /meta/customer/ */
    updateContact: build.mutation<Contact, ContactSaveArgs & { customer_id: number }>({
      query: (body) => ({ url: '/meta/customer/', method: 'PUT', body }),
      invalidatesTags: CHANGED,
    }),
    /** DELETE /recipient/{id}/ */
    deleteContact: build.mutation<void, number>({
      query: (id) => ({ url: `/recipient/${id}/`, method: 'DELETE' }),
      invalidatesTags: CHANGED,
    }),
    /** GET /recipient/tags/: the account's tags with how many contacts carry each. */
    getTags: build.query<Tag[], string | null>({
      query: () => '/recipient/tags/',
      providesTags: ['Tags'],
    }),
    /** POST /recipient/tags/add/: tag the selected contacts (the tag is created when missing). */
    addTagToContacts: build.mutation<BulkTagResult, { contact_ids: number[]; tag_name: string }>({
      query: (body) => ({ url: '/recipient/tags/add/', method: 'POST', body }),
      invalidatesTags: CHANGED,
    }),
    /** POST /recipient/tags/remove/ */
    removeTagFromContacts: build.mutation<BulkTagResult, { contact_ids: number[]; tag_id: number }>({
      query: (body) => ({ url: '/recipient/tags/remove/', method: 'POST', body }),
      invalidatesTags: CHANGED,
    }),
    /** PUT /recipient/tags/{id}/ */
    renameTag: build.mutation<Tag, { id: number; name: string }>({
      query: ({ id, name }) => ({ url: `/recipient/tags/${id}/`, method: 'PUT', body: { name } }),
      invalidatesTags: CHANGED,
    }),
    /** DELETE /recipient/tags/{id}/: answers the tag with the number of contacts it was taken off. */
    deleteTag: build.mutation<Tag, number>({
      query: (id) => ({ url: `/recipient/tags/${id}/`, method: 'DELETE' }),
      invalidatesTags: CHANGED,
    }),
    /** GET /recipient/cols: the column names templates can use as variables. */
    getContactColumns: build.query<string[], string | null>({
      query: () => '/recipient/cols',
      providesTags: ['Contacts'],
    }),
  }),
});

export const {
  useGetContactsQuery,
  useCreateContactMutation,
  useUpdateContactMutation,
  useDeleteContactMutation,
  useGetTagsQuery,
  useGetContactColumnsQuery,
  useAddTagToContactsMutation,
  useRemoveTagFromContactsMutation,
  useRenameTagMutation,
  useDeleteTagMutation,
} = contactsApi;
