-- Customers known by a business-scoped user id (BSUID, e.g. 'US.1234…') and maybe a username (decision 050).
-- A customer who hides their number is addressed by their BSUID alone: such a contact keeps its BSUID in
-- whatsapp_number too (the address every audience, message row and reach count is keyed by) and is sent with
-- `recipient` instead of `to`; a contact with a number keeps the number there and its BSUID beside it.
alter table contacts add column bsuid text, add column username text;
create unique index contacts_waba_bsuid_key on contacts (waba_account_id, bsuid) where bsuid is not null;
