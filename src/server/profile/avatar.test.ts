import { request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { deflateSync } from "node:zlib";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../tests/helpers/test-app";
import { makeUser } from "../db/factories";
import { AVATAR_MAX_BYTES } from "../../shared/schemas/profile";

// Profile pictures (part 2 §2, §5; issue 15; decision 084): the content decides the type, the size is enforced while
// the upload streams, and what is served is a fresh WebP without the upload's metadata.

let t: TestApp;
let dataDir: string;
let cookie: string;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "showroom-avatars-"));
  t = await createTestApp({ dataDir });
  const user = await makeUser(t.db);
  const response = await t.app.inject({ method: "POST", url: "/api/login", payload: { email: user.email, password: user.password } });
  const setCookie = response.headers["set-cookie"];
  cookie = (Array.isArray(setCookie) ? setCookie[0]! : setCookie!).split(";")[0]!;
});
afterAll(async () => {
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const BOUNDARY = "----showroom-test-boundary";

function partHead(filename: string, contentType: string, field = "avatar"): Buffer {
  return Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`);
}
const TAIL = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);

function upload(bytes: Buffer, filename: string, contentType: string, field = "avatar") {
  return t.app.inject({
    method: "POST",
    url: "/api/user/avatar",
    headers: { cookie, "content-type": `multipart/form-data; boundary=${BOUNDARY}` },
    payload: Buffer.concat([partHead(filename, contentType, field), bytes, TAIL]),
  });
}

function photo(format: "jpeg" | "png" | "webp", width = 640, height = 480) {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 60 } } });
}

/** A PNG whose header claims 50,000 x 50,000 pixels (2.5 gigapixels, 7.5 GB decoded) in a few dozen bytes. */
function decompressionBomb(): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc32 = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(50_000, 0);
  header.writeUInt32BE(50_000, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(Buffer.alloc(64 * 1024))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

describe("uploading a profile picture", () => {
  it("re-encodes a photo as a small WebP without its EXIF, and serves it as an image only, cacheable for long", async () => {
    const original = await photo("jpeg")
      .withExif({ IFD0: { Make: "SecretCam", Model: "Serial-4471-XYZ", Copyright: "GPS 43.65N 79.38W" } })
      .jpeg()
      .toBuffer();
    expect(original.includes(Buffer.from("Serial-4471-XYZ"))).toBe(true);

    const response = await upload(original, "me.jpg", "image/jpeg");
    expect(response.statusCode, response.body).toBe(200);
    const { profileImageUrl } = response.json<{ profileImageUrl: string }>();
    expect(profileImageUrl).toMatch(/^\/api\/avatars\/[A-Za-z0-9_-]+\.webp$/);
    const me = await t.app.inject({ method: "GET", url: "/api/user", headers: { cookie } });
    expect(me.json()).toMatchObject({ profileImageUrl });

    const served = await t.app.inject({ method: "GET", url: profileImageUrl, headers: { cookie } });
    expect(served.statusCode).toBe(200);
    expect(served.headers["content-type"]).toBe("image/webp");
    expect(served.headers["x-content-type-options"]).toBe("nosniff");
    expect(served.headers["cache-control"]).toMatch(/max-age=31536000/);
    const meta = await sharp(served.rawPayload).metadata();
    expect(meta.format).toBe("webp");
    expect(meta.exif).toBeUndefined();
    expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBeLessThanOrEqual(512);
    for (const secret of ["SecretCam", "Serial-4471-XYZ", "GPS 43.65N"]) expect(served.rawPayload.includes(Buffer.from(secret))).toBe(false);
  });

  it("takes a PNG named .jpg as the PNG it is: the content decides, not the name", async () => {
    const png = await photo("png").png().toBuffer();
    const response = await upload(png, "holiday.jpg", "image/jpeg");
    expect(response.statusCode, response.body).toBe(200);
  });

  it("accepts WebP", async () => {
    const response = await upload(await photo("webp", 300, 300).webp().toBuffer(), "me.webp", "image/webp");
    expect(response.statusCode, response.body).toBe(200);
  });

  it("replaces the previous picture: its address stops answering", async () => {
    const first = (await upload(await photo("png").png().toBuffer(), "a.png", "image/png")).json<{ profileImageUrl: string }>();
    const second = (await upload(await photo("png").png().toBuffer(), "b.png", "image/png")).json<{ profileImageUrl: string }>();
    expect(second.profileImageUrl).not.toBe(first.profileImageUrl);
    expect((await t.app.inject({ method: "GET", url: first.profileImageUrl, headers: { cookie } })).statusCode).toBe(404);
    expect((await t.app.inject({ method: "GET", url: second.profileImageUrl, headers: { cookie } })).statusCode).toBe(200);
  });

  it("refuses an SVG (it can carry script)", async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>');
    const response = await upload(svg, "avatar.svg", "image/svg+xml");
    expect(response.statusCode).toBe(415);
    expect(response.json()).toEqual({ message: "Invalid File Type: Please select a JPEG, PNG or WebP image." });
  });

  it("refuses an HTML file named .png", async () => {
    const html = Buffer.from("<!doctype html><html><body><script>document.location='https://evil.example'</script></body></html>");
    const response = await upload(html, "avatar.png", "image/png");
    expect(response.statusCode).toBe(415);
    expect(response.json<{ message: string }>().message).toMatch(/JPEG, PNG or WebP/);
  });

  it("refuses a decompression bomb from its header, before decoding it", async () => {
    const bomb = decompressionBomb();
    expect(bomb.length).toBeLessThan(1024);
    const response = await upload(bomb, "tiny.png", "image/png");
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ message: "This image is too large: at most 40 megapixels." });
  });

  it("refuses a broken image with a clear message", async () => {
    const png = await photo("png").png().toBuffer();
    const response = await upload(png.subarray(0, 40), "cut.png", "image/png");
    expect(response.statusCode).toBe(400);
    expect(response.json<{ message: string }>().message).toMatch(/could not be read/);
  });

  it("refuses a file in any other field, and a body that is not multipart", async () => {
    const png = await photo("png").png().toBuffer();
    expect((await upload(png, "a.png", "image/png", "picture")).json()).toMatchObject({ fields: { avatar: expect.any(String) } });
    const json = await t.app.inject({ method: "POST", url: "/api/user/avatar", headers: { cookie }, payload: { avatar: "x" } });
    expect(json.statusCode).toBe(400);
  });

  it("refuses an upload over 5 MB while it is still streaming in, before the rest is read", async () => {
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    const { port } = t.app.server.address() as AddressInfo;
    const answer = await new Promise<{ status: number; body: string; sentBytes: number }>((resolve, reject) => {
      let sent = 0;
      let answered = false;
      const req = httpRequest({
        host: "127.0.0.1",
        port,
        method: "POST",
        path: "/api/user/avatar",
        headers: { cookie, "content-type": `multipart/form-data; boundary=${BOUNDARY}`, "transfer-encoding": "chunked" },
      });
      req.on("response", (res) => {
        answered = true;
        let body = "";
        res.on("data", (chunk: Buffer) => (body += chunk.toString()));
        res.on("end", () => {
          resolve({ status: res.statusCode ?? 0, body, sentBytes: sent });
          req.destroy();
        });
      });
      req.on("error", (error) => {
        if (!answered) reject(error);
      });
      // A JPEG's first bytes, then zeros: up to 20 MB offered, and the request body is never ended.
      const chunk = Buffer.alloc(64 * 1024);
      req.write(partHead("huge.jpg", "image/jpeg"));
      req.write(Buffer.from([0xff, 0xd8, 0xff, 0xe0]));
      const pump = () => {
        while (!answered && sent < 20 * 1024 * 1024) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once("drain", pump);
        }
      };
      pump();
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({ message: "File Too Large: Please select an image smaller than 5MB." });
    // The answer came while the body was still open and far from its 20 MB.
    expect(answer.sentBytes).toBeGreaterThan(AVATAR_MAX_BYTES);
    expect(answer.sentBytes).toBeLessThan(20 * 1024 * 1024);
  });
});
