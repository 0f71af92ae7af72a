-- Phone numbers in E.164 (issue 29, decision 205). Migration 0022 rebuilt leads.phone_normalized to leave out an
-- extension, and dropping the column took its index with it: the index is made again here.
CREATE INDEX IF NOT EXISTS "leads_dealership_phone_normalized_idx" ON "leads" USING btree ("dealership_id","phone_normalized") WHERE "leads"."phone_normalized" is not null;--> statement-breakpoint
-- Numbers already stored, as people typed them (the old rule kept 7 to 15 digits and + ( ) . - and spaces), written the
-- way src/shared/phone.ts stores one: "+15145550199", "+19055551212;ext=123". A number without "+" is North American
-- (the home region, Canada): ten digits, or eleven after a 1, or 011 then an international number; one with "+" keeps
-- its country code ("(0)" dropped). Anything else (a 7-digit local number, stray text) is left as it was typed, and
-- the screens show it so. This function is the rule; tests/api/phone-migration.test.ts runs it on a table of rows.
CREATE FUNCTION "showroom_phone_e164_0023"(typed text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  WITH parts AS (
    SELECT btrim(typed) AS t,
           (regexp_match(btrim(typed), '(?:;\s*ext=|\s*(?:extension|ext\.?|x|#)\s*)([0-9]{1,10})\s*$', 'i'))[1] AS ext
  ), main AS (
    SELECT t, ext, replace(btrim(regexp_replace(t, '(?:;\s*ext=|\s*(?:extension|ext\.?|x|#)\s*)([0-9]{1,10})\s*$', '', 'i')), '(0)', '') AS m
    FROM parts
  ), number AS (
    SELECT t, ext, m, regexp_replace(m, '[^0-9]', '', 'g') AS d FROM main
  ), e164 AS (
    SELECT t, ext, CASE
      WHEN m !~ '^\+?[0-9().\s/-]+$' THEN NULL
      WHEN m LIKE '+%' AND d LIKE '1%' THEN CASE WHEN length(d) = 11 THEN '+' || d END
      WHEN m LIKE '+%' THEN CASE WHEN length(d) BETWEEN 8 AND 15 THEN '+' || d END
      WHEN length(d) = 10 THEN '+1' || d
      WHEN length(d) = 11 AND d LIKE '1%' THEN '+' || d
      WHEN d LIKE '011%' AND length(d) BETWEEN 11 AND 18 THEN '+' || substr(d, 4)
    END AS n
    FROM number
  )
  SELECT CASE WHEN n IS NULL THEN typed ELSE n || coalesce(';ext=' || ext, '') END FROM e164
$$;--> statement-breakpoint
UPDATE "leads" SET "phone" = "showroom_phone_e164_0023"("phone") WHERE "phone" IS NOT NULL AND "phone" <> "showroom_phone_e164_0023"("phone");--> statement-breakpoint
UPDATE "appointments" SET "phone" = "showroom_phone_e164_0023"("phone") WHERE "phone" IS NOT NULL AND "phone" <> "showroom_phone_e164_0023"("phone");--> statement-breakpoint
UPDATE "dealership_testdrives" SET "phone" = "showroom_phone_e164_0023"("phone") WHERE "phone" IS NOT NULL AND "phone" <> "showroom_phone_e164_0023"("phone");--> statement-breakpoint
UPDATE "dealerships" SET "phone" = "showroom_phone_e164_0023"("phone") WHERE "phone" IS NOT NULL AND "phone" <> "showroom_phone_e164_0023"("phone");--> statement-breakpoint
UPDATE "users" SET "phone" = "showroom_phone_e164_0023"("phone") WHERE "phone" IS NOT NULL AND "phone" <> "showroom_phone_e164_0023"("phone");--> statement-breakpoint
DROP FUNCTION "showroom_phone_e164_0023"(text);
