import type { Contact, ContactList, Tag } from '@herald/contracts';
import { api } from '../../lib/api';

type ContactListArgs = {
  page: number;
  pageSize: number;
  search: string;
  /** The selected account: it only keys the cache (the base query sends it as X-WABA-ID). */
  wabaId: string | null;
};

type ContactSaveArgs = { customer_name: string; whatsapp_number: string };

// A change to any contact can move rows between pages and change tag counts, so every mutation
// invalidates the whole list and the tags.
const CHANGED = ['Contacts', 'Tags'] as const;

/** Spec §7 recipient calls. */
export const contactsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** GET /recipient/create/: one page of contacts, optionally filtered by `search`. */
    getContacts: build.query<ContactList, ContactListArgs>({
      query: ({ page, pageSize, search }) => ({
        url: '/recipient/create/',
        params: { page, page_size: pageSize, ...(search ? { search } : {}) },
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
} = contactsApi;
