-- Issue 17 (decision 036): the history separates messages handed to WhatsApp (accepted by Meta, held for its
-- quality check, or in flight when their sender died) from those WhatsApp reported sent (sent, delivered, read).
-- accepted_count (both together) stays for the code that reads it; both are recounted with it (broadcast-counts.ts).
alter table broadcasts add column handed_count int not null default 0;
alter table broadcasts add column sent_count int not null default 0;
update broadcasts b
   set handed_count = s.handed, sent_count = s.sent
  from (select broadcast_id,
               count(*) filter (where state in ('accepted', 'held', 'unconfirmed'))::int as handed,
               count(*) filter (where state in ('sent', 'delivered', 'read'))::int as sent
          from broadcast_messages group by broadcast_id) s
 where b.id = s.broadcast_id;
-- The history's date range reads the Scheduled time (broadcast-list.ts).
create index broadcasts_scheduled_idx on broadcasts (waba_account_id, scheduled_at);
