import { randomBytes } from "node:crypto";
import { mkdir, rename, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import sharp, { type Metadata } from "sharp";
import { HttpError } from "../http/errors";

// Profile pictures (part 2 §2, §5; decision 084). What was uploaded is never served: the type is decided by the
// file's first bytes (not its name or the browser's word), the pixel count is checked from the header before
// anything is decoded, and the picture is decoded and written anew as a small WebP without any metadata (EXIF GPS
// position, camera serial numbers, embedded scripts or ICC tricks all stay behind).

export const AVATAR_EDGE_PX = 512;
/** 40 megapixels: any real photo fits; a "decompression bomb" of a tiny file claiming 50,000 x 50,000 does not. */
export const AVATAR_MAX_PIXELS = 40_000_000;
export const AVATAR_FILE_PATTERN = /^[A-Za-z0-9_-]{21}-[A-Za-z0-9_-]{22}\.webp$/;

export const NOT_AN_ACCEPTED_IMAGE = "Invalid File Type: Please select a JPEG, PNG or WebP image.";
export const UNREADABLE_IMAGE = "This image could not be read. Please select another JPEG, PNG or WebP image.";
export const TOO_MANY_PIXELS = `This image is too large: at most ${AVATAR_MAX_PIXELS / 1_000_000} megapixels.`;

type ImageKind = "jpeg" | "png" | "webp";

/** The image format the bytes start with (magic numbers), or null. */
export function sniffImage(bytes: Buffer): ImageKind | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "jpeg";
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return "png";
  if (bytes.length >= 12 && bytes.toString("latin1", 0, 4) === "RIFF" && bytes.toString("latin1", 8, 12) === "WEBP") return "webp";
  return null;
}

/** A square WebP of the picture, turned upright, with no metadata; refuses anything else with a clear 4xx. */
export async function reencodeAvatar(upload: Buffer): Promise<Buffer> {
  const kind = sniffImage(upload);
  if (!kind) throw new HttpError(415, NOT_AN_ACCEPTED_IMAGE);
  let meta: Metadata;
  try {
    meta = await sharp(upload, { limitInputPixels: false }).metadata();
  } catch {
    throw new HttpError(400, UNREADABLE_IMAGE);
  }
  if (meta.format !== kind) throw new HttpError(415, NOT_AN_ACCEPTED_IMAGE);
  const pixels = (meta.width ?? 0) * (meta.height ?? 0) * Math.max(1, meta.pages ?? 1);
  if (pixels === 0) throw new HttpError(400, UNREADABLE_IMAGE);
  if (pixels > AVATAR_MAX_PIXELS) throw new HttpError(413, TOO_MANY_PIXELS);
  try {
    return await sharp(upload, { limitInputPixels: AVATAR_MAX_PIXELS, failOn: "error", pages: 1 })
      .rotate()
      .resize(AVATAR_EDGE_PX, AVATAR_EDGE_PX, { fit: "cover", withoutEnlargement: true })
      .webp({ quality: 85 })
      .toBuffer();
  } catch {
    throw new HttpError(400, UNREADABLE_IMAGE);
  }
}

export function avatarDir(dataDir: string): string {
  return path.join(dataDir, "avatars");
}

/** Stores a re-encoded picture under a new name (so it can be cached for ever) and answers that name. */
export async function storeAvatar(dataDir: string, userId: string, image: Buffer): Promise<string> {
  const dir = avatarDir(dataDir);
  await mkdir(dir, { recursive: true });
  const file = `${userId}-${randomBytes(16).toString("base64url")}.webp`;
  // Written aside and renamed: a reader never sees half a file.
  const partial = path.join(dir, `.${file}.partial`);
  await writeFile(partial, image, { mode: 0o644 });
  await rename(partial, path.join(dir, file));
  return file;
}

export async function removeAvatar(dataDir: string, file: string): Promise<void> {
  if (!AVATAR_FILE_PATTERN.test(file)) return;
  await unlink(path.join(avatarDir(dataDir), file)).catch(() => undefined);
}

export function avatarUrl(file: string): string {
  return `/api/avatars/${file}`;
}

/** The file name behind one of our avatar URLs, or null. */
export function avatarFileOf(url: string | null | undefined): string | null {
  const file = url?.startsWith("/api/avatars/") ? url.slice("/api/avatars/".length) : null;
  return file && AVATAR_FILE_PATTERN.test(file) ? file : null;
}
