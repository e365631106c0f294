ALTER TABLE games RESET (toast_tuple_target);
