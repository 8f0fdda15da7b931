-- The engine's tick looks for unconfirmed messages past the outcome timeout (broadcast-completion.ts) on every
-- tick; without an index of that state it read every message row each time (a sequential scan, measured in the
-- broadcast bench: one per tick). Unconfirmed rows are few (a dead sender's requests), so the index is small.
create index broadcast_messages_unconfirmed_idx on broadcast_messages (unconfirmed_at) where state = 'unconfirmed';
