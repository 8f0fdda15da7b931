-- Decision 059: the senders and the webhook batches no longer recount a broadcast's counters from all its
-- message rows after every batch; they mark the counters stale, and the next reader (the history, the
-- completed e-mail, retention) recounts a stale broadcast once, however many batches came before it.
alter table broadcasts add column counts_stale boolean not null default false;
create index broadcasts_counts_stale_idx on broadcasts (waba_account_id) where counts_stale;
