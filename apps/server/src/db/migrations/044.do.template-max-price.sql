-- A marketing template's maximum price (Meta's `optimization_spec.bid_amount`): US cents per 1,000 deliveries,
-- Meta's int32; null keeps the rate card. Meta applies it to sends through the Marketing Messages API only.
alter table templates
  add column max_price_bid_amount integer
    check (max_price_bid_amount is null or max_price_bid_amount > 0);
