import { writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';

/** A JPEG of noise (incompressible, so size follows pixel count) close to `bytes` long. */
async function jpegOfSize(bytes: number): Promise<Buffer> {
  const encode = async (side: number) => {
    const raw = Buffer.alloc(side * side * 3);
    for (let i = 0; i < raw.length; i++) raw[i] = (Math.random() * 256) | 0;
    return sharp(raw, { raw: { width: side, height: side, channels: 3 } }).jpeg({ quality: 90 }).toBuffer();
  };
  let side = Math.max(16, Math.round(Math.sqrt(bytes / 1.5)));
  let img = await encode(side);
  for (let i = 0; i < 3 && Math.abs(img.length - bytes) / bytes > 0.05; i++) {
    side = Math.max(16, Math.round(side * Math.sqrt(bytes / img.length)));
    img = await encode(side);
  }
  return img;
}

/** Multipart bodies with one image field ("image"), written to files the load generator sends as they are. */
export async function writeUploadBodies(dir: string, sizes: Record<string, number>) {
  const boundary = '----bench' + Date.now().toString(36);
  const out: Record<string, { file: string; contentType: string; imageBytes: number; width: number; height: number }> = {};
  for (const [name, bytes] of Object.entries(sizes)) {
    const image = await jpegOfSize(bytes);
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="bench-${name}.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`),
      image,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const file = path.join(dir, `upload-${name}.bin`);
    writeFileSync(file, body);
    const { width = 0, height = 0 } = await sharp(image).metadata();
    out[name] = { file, contentType: `multipart/form-data; boundary=${boundary}`, imageBytes: image.length, width, height };
  }
  return out;
}
