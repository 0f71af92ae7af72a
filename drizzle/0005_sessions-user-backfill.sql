-- Sessions made before sessions.user_id existed name their user only inside sess (decision 052).
UPDATE "sessions" SET "user_id" = "sess"->>'userId'
  WHERE "user_id" IS NULL AND EXISTS (SELECT 1 FROM "users" u WHERE u."id" = "sessions"."sess"->>'userId');--> statement-breakpoint
DELETE FROM "sessions" WHERE "user_id" IS NULL;
