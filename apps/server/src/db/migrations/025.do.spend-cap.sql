-- An optional spend cap per broadcast (issue 20 item 3; decision 052), in the account's currency (USD).
--   spend_cap        null: no cap. At most two decimals, as New broadcast takes it.
--   spend_committed  what the messages Herald has requested (or is about to) would cost if every one were
--                    billed: each counted once, at its market's rate for the template's category that day.
--   spend_needed     set when the cap paused the broadcast: the committed figure plus the next message, the
--                    least cap that lets it resume (a lower one would pause it again at once).
alter table broadcasts
  add column spend_cap numeric(12, 2) check (spend_cap > 0),
  add column spend_committed numeric(18, 6) not null default 0,
  add column spend_needed numeric(18, 6);

-- A message counted against its broadcast's cap: a row given back to the queue unsent (the messaging limit, a
-- stopping worker) and claimed again, or retried, is not counted twice. A constant default: no table rewrite.
alter table broadcast_messages add column spend_counted boolean not null default false;
