-- The Default Language setting offers every template language Meta supports, not only English, Spanish and
-- French: the list lives in packages/contracts (templates/languages.ts), which every write is checked against,
-- and grows when Meta's does, so the column keeps only the shape of a code.
alter table account_settings drop constraint account_settings_default_language_check;
alter table account_settings
  add constraint account_settings_default_language_check check (default_language ~ '^[a-z]{2,3}(_[A-Z]{2})?$');
