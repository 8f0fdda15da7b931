-- The frozen audience of a started broadcast whose message rows are still being written (docs/decisions/011).
-- Starting a broadcast freezes its whole sampled audience here, in hash order, and writes the first message
-- rows in the same transaction, so sending begins at once; the rest are written in slices while it sends.
-- The row is deleted with the last slice.
create table broadcast_audiences (
  broadcast_id bigint primary key references broadcasts (id) on delete cascade,
  contact_ids bigint[] not null,
  numbers text[] not null,
  -- How many entries of the arrays already have message rows.
  written int not null
);
