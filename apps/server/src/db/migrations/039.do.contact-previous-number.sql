-- A contact's number before WhatsApp said its person changed it (user_changed_number, decision 075): a plain
-- reply from the new number may answer a broadcast message that went to the old one, and only this contact's
-- messages to that number may be linked (the old number may now be someone else's).
alter table contacts add column previous_number text;
