-- Every deleted session (sign-out, removal, password change, maintenance, a deleted account) is announced to every
-- app process at commit, so each closes that session's real-time sockets (decision 107). One statement-level trigger:
-- a bulk delete notifies once per session, in the deleting transaction.
CREATE OR REPLACE FUNCTION "showroom_sessions_ended"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('showroom_sessions_ended', "sid") FROM "ended_sessions";
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "sessions_ended_notify" AFTER DELETE ON "sessions"
  REFERENCING OLD TABLE AS "ended_sessions" FOR EACH STATEMENT EXECUTE FUNCTION "showroom_sessions_ended"();
