import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import path from "node:path";
import multipart from "@fastify/multipart";
import type { FastifyInstance } from "fastify";
import { responses } from "../../shared/schemas/responses/profile";
import { AVATAR_MAX_BYTES, EMAIL_CHANGE_NEEDS_PROOF, FILE_TOO_LARGE, passwordChangeSchema, profileSchema } from "../../shared/schemas/profile";
import { normalizePassword } from "../../shared/schemas/password";
import { publicUser, requireUser, signedInFirst } from "../auth/current-user";
import { countReauthentication, CURRENT_PASSWORD_WRONG, reauthenticated } from "../auth/reauthentication";
import { passwordProblem } from "../auth/password-policy";
import { hashPassword, verifyPassword } from "../auth/passwords";
import { endSessionsOfUser } from "../auth/sessions";
import { signIn } from "../auth/sign-in";
import { userWithSecrets } from "../auth/two-factor";
import { users } from "../db/schema/users";
import { answers, pathOf, type ZodTypeProvider } from "../http/contract";
import { badRequest, HttpError, notFound } from "../http/errors";
import { eq, sql } from "drizzle-orm";
import { profileEmailRoutes } from "./email-routes";
import { AVATAR_FILE_PATTERN, avatarDir, avatarFileOf, avatarUrl, reencodeAvatar, removeAvatar, storeAvatar } from "./avatar";
import { activeSessionsOf, replaceProfileImage, updateProfile } from "./queries";

export const SAME_PASSWORD = "New password must be different from the current one";
export const AVATAR_FIELD_MISSING = "Send the picture as the multipart field avatar";

const TOO_LARGE = `File Too Large: ${FILE_TOO_LARGE}`;

/**
 * The file's bytes, refused the moment the limit is passed: busboy stops at the limit and would otherwise go on
 * reading (and discarding) the rest of the body. The answer closes the connection, so the rest is never read.
 */
function readWithinLimit(file: NodeJS.ReadableStream & { truncated?: boolean; destroy(): void }): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const tooLarge = () => reject(new HttpError(413, TOO_LARGE, undefined, { connection: "close" }));
    file.on("limit", () => {
      file.destroy();
      tooLarge();
    });
    file.on("data", (chunk: Buffer) => chunks.push(chunk));
    file.on("end", () => (file.truncated ? tooLarge() : resolve(Buffer.concat(chunks))));
    file.on("error", reject);
  });
}

// The profile calls of part 2 §7 and the Active sessions card (issue 15). Only ever the signed-in user's own record.
export async function profileRoutes(server: FastifyInstance): Promise<void> {
  const app = server.withTypeProvider<ZodTypeProvider>();
  // Registered here only: multipart bodies are accepted by the avatar upload and nowhere else. The size limit is
  // applied while the upload streams in: the 5,000,001st byte ends it (decision 084).
  await app.register(multipart, { limits: { fileSize: AVATAR_MAX_BYTES, files: 1, fields: 0, parts: 1, headerPairs: 50 } });

  await app.register(profileEmailRoutes);

  // The names. The e-mail changes only through the e-mail change (password, second factor, a code to the new
  // address: decision 169); sent along unchanged it is fine, a different one is refused.
  app.patch(
    "/api/user/profile",
    { schema: { body: profileSchema, response: answers(responses["PATCH /api/user/profile"]) }, preValidation: signedInFirst },
    async (request) => {
      const user = await requireUser(request);
      const input = request.body;
      if (input.email !== undefined && input.email !== user.email) throw badRequest(EMAIL_CHANGE_NEEDS_PROOF, { email: EMAIL_CHANGE_NEEDS_PROOF });
      const row = await updateProfile(app.db, user.id, input);
      if (!row) throw notFound("Your account no longer exists");
      return publicUser(row);
    },
  );

  // A multipart body, read in the handler as it streams (the size limit ends it): the route declares its answer.
  app.post("/api/user/avatar", { schema: { response: answers(responses["POST /api/user/avatar"]) } }, async (request) => {
    const user = await requireUser(request);
    if (!request.isMultipart()) throw badRequest(AVATAR_FIELD_MISSING, { avatar: AVATAR_FIELD_MISSING });
    let upload: Buffer;
    try {
      const part = await request.file();
      if (!part || part.fieldname !== "avatar") throw badRequest(AVATAR_FIELD_MISSING, { avatar: AVATAR_FIELD_MISSING });
      upload = await readWithinLimit(part.file);
    } catch (error) {
      if (error instanceof HttpError) throw error;
      const code = (error as { code?: string }).code;
      if (code === "FST_PARTS_LIMIT" || code === "FST_FILES_LIMIT" || code === "FST_FIELDS_LIMIT") {
        throw badRequest("Send one picture only", { avatar: "Send one picture only" });
      }
      throw badRequest("The upload could not be read", { avatar: "The upload could not be read" });
    }
    const image = await reencodeAvatar(upload);
    const file = await storeAvatar(app.config.dataDir, user.id, image);
    const replaced = await replaceProfileImage(app.db, user.id, avatarUrl(file));
    const previous = avatarFileOf(replaced?.previous);
    if (previous) await removeAvatar(app.config.dataDir, previous);
    return { profileImageUrl: avatarUrl(file) };
  });

  // Each upload has a new name, so a browser may keep it for a year; nosniff makes it an image or nothing.
  app.get("/api/avatars/:file", { schema: { params: pathOf("file") } }, async (request, reply) => {
    await requireUser(request);
    const { file } = request.params;
    if (!AVATAR_FILE_PATTERN.test(file)) throw notFound("No such picture");
    const full = path.join(avatarDir(app.config.dataDir), file);
    const info = await stat(full).catch(() => null);
    if (!info?.isFile()) throw notFound("No such picture");
    return reply
      .header("content-type", "image/webp")
      .header("content-length", info.size)
      .header("x-content-type-options", "nosniff")
      .header("content-security-policy", "default-src 'none'; sandbox")
      .header("cache-control", "private, max-age=31536000, immutable")
      .send(createReadStream(full));
  });

  // The current password is required and counted before it is checked (a stolen session cannot guess it); every other
  // session ends, and this one continues under a new id (decision 085).
  app.patch(
    "/api/user/password",
    { schema: { body: passwordChangeSchema, response: answers(responses["PATCH /api/user/password"]) }, preValidation: signedInFirst },
    async (request, reply) => {
      const user = await requireUser(request);
      const input = request.body;
      const attempt = await countReauthentication(app.db, user.id);
      const row = await userWithSecrets(app.db, user.id);
      if (!row || !(await verifyPassword(row.password, input.currentPassword))) {
        throw badRequest(CURRENT_PASSWORD_WRONG, { currentPassword: CURRENT_PASSWORD_WRONG });
      }
      await reauthenticated(app.db, user.id, attempt);
      const problem = passwordProblem(input.newPassword, row.email);
      if (problem) throw badRequest(problem, { newPassword: problem });
      if (normalizePassword(input.newPassword) === normalizePassword(input.currentPassword)) {
        throw badRequest(SAME_PASSWORD, { newPassword: SAME_PASSWORD });
      }
      const passwordHash = await hashPassword(input.newPassword);
      const changedAt = await app.db.transaction(async (tx) => {
        const [changed] = await tx
          .update(users)
          .set({ password: passwordHash, passwordChangedAt: sql`now()` })
          .where(eq(users.id, user.id))
          .returning({ at: users.passwordChangedAt });
        await endSessionsOfUser(tx, user.id);
        return changed?.at ?? new Date();
      });
      // This browser goes on under a new session id; it passed the second factor when it signed in (decision 168).
      await signIn(server, reply, user.id, { renewsOwnSession: true });
      return { message: "Password changed", passwordChangedAt: changedAt };
    },
  );

  app.get("/api/user/sessions", { schema: { response: answers(responses["GET /api/user/sessions"]) } }, async (request) => {
    const user = await requireUser(request);
    return activeSessionsOf(app.db, user.id, request.session?.sid);
  });

  app.post("/api/user/sessions/sign-out-others", { schema: { response: answers(responses["POST /api/user/sessions/sign-out-others"]) } }, async (request) => {
    const user = await requireUser(request);
    return { ended: await endSessionsOfUser(app.db, user.id, request.session?.sid) };
  });
}
