-- What Meta said it charges for each broadcast message (issue 20; decision 048): the status webhooks' `pricing`
-- object, stored as it came. The webhook carries no amount: the cost is computed from these, the recipient's
-- market and the rate card in effect on the day the message was priced (priced_at), never stored as a figure.
alter table broadcast_messages
  add column pricing_billable boolean,
  add column pricing_model text,
  add column pricing_category text,
  add column pricing_type text,
  add column priced_at timestamptz;
