-- What Meta says it charged for a message (a status's `pricing.cost.amount`, in USD), where it says it: Meta
-- states it for a marketing message with a max price, whose charge is the price or less, not the rate card.
alter table broadcast_messages
  add column pricing_cost numeric(12, 6) check (pricing_cost is null or pricing_cost >= 0);
