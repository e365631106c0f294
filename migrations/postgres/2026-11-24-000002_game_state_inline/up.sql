-- A game row is about 1 kB of columns plus its state, about 4 kB of JSON
-- that compresses to about 1.3 kB. By default PostgreSQL keeps a row
-- below 2 kB: it compressed the state and then moved it out to the TOAST
-- table as well, so every move inserted a TOAST row and its index entry,
-- deleted the old one, and every read looked it up again. With this
-- target the state is compressed only when the row would be over 4 kB,
-- and it stays in the row either way.
ALTER TABLE games SET (toast_tuple_target = 4080);
