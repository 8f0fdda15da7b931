-- What Meta said it charges for each broadcast message (issue 20; decision 048): the status webhooks' `pricing`
-- object, stored as it came. The webhook carries no amount: the cost is computed from these, the recipient's
-- market and the rate card in effect on the day the message was priced (priced_at), never stored as a figure.
alter table broadcast_messages
  add column pricing_billable boolean,
  add column pricing_model text,
  add column pricing_category text,
  add column pricing_type text,
  add column priced_at timestamptz;

-- The cost estimate groups an audience by the first four digits of its numbers (calling code, and area code for
-- +1; decision 049): this index answers that grouping for a million contacts from the index alone, in order,
-- instead of hashing a scan of the table (about half the time: 80 against 150-170 ms on the bench machine).
create index contacts_market_prefix_idx
  on contacts (waba_account_id, (left(whatsapp_number, 5) collate "C")) include (whatsapp_number)
  where opted_out_at is null;
