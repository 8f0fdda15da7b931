// What other features use of the contacts feature (features meet only through index.ts): the account's tags.
export { useGetTagsQuery } from './api';
