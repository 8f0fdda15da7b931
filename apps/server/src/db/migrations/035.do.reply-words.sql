-- The replies that opt a contact out of an account's broadcasts, and back in. Null: Herald's defaults in English,
-- Spanish and French (DEFAULT_OPT_OUT_WORDS and DEFAULT_OPT_IN_WORDS in packages/contracts), kept in one place.
alter table account_settings
  add column opt_out_words text[],
  add column opt_in_words text[];
