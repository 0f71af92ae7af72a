-- Custom SQL migration file, put your code below! --
-- Trigram indexes answer the leads search (substring of name, e-mail or phone) from an index (decision 011).
-- pg_trgm is a trusted extension: a database owner may create it. PGlite loads it in openPglite (db/client.ts).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
