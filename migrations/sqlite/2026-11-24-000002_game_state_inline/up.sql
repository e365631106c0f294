-- PostgreSQL only: keeps the game state in the game row (see
-- migrations/postgres). SQLite stores a row whole, in as many overflow
-- pages as it needs; nothing to change here.
SELECT 1;
