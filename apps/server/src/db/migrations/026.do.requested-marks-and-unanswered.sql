-- Which claimed rows may have reached Meta (issue 18, decision 055). A sender marks each small group of its
-- batch `requested_at` just before those requests go out; a worker taking over a dead sender's number turns
-- only marked `sending` rows unconfirmed (they may have reached Meta) and gives the rest back to the queue
-- (never requested: sent once later). The claim clears the mark. Not indexed: the mark stays a HOT update.
alter table broadcast_messages add column requested_at timestamptz;
-- Since when every send of the broadcast has found WhatsApp's servers not answering (5xx, unreachable):
-- the history says "Retrying: ..." meanwhile; the first answered batch clears it.
alter table broadcasts add column unanswered_since timestamptz;
-- Workers whose broadcast engine is alive, for a fair share of numbers between them (worker-share.ts): each
-- engine beats once a tick (worker_heartbeats is the job queue's proof of life, one row per run).
create table broadcast_workers (
  holder text primary key,
  seen_at timestamptz not null
);
