-- New broadcast says how many of the chosen contacts are left out because they opted out: this index finds an
-- account's opted-out contacts without reading the others (a few rows among a million).
create index contacts_opted_out_idx on contacts (waba_account_id) where opted_out_at is not null;
