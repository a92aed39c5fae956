/** The product image service: validate, re-encode and store uploads; remove and arrange images. */

import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type Sharp from 'sharp';
import { z } from 'zod';
import type { RequestContext } from '../../platform/context';
import type { Prisma } from '../../platform/db/client';
import { transaction } from '../../platform/outbox/outbox';
import { AppError, notFound } from '../../platform/errors';
import { storageFor } from '../../platform/storage';
import { PRODUCT_VIEW_INCLUDE } from './views';
import { catalogOf } from './catalogScope';
import { emitProductEvent, productBeforeWrite, requireVersion, writeProductVersion } from './products';
import { isUuid } from '../../kernel/ids';
import { IMAGE_TYPES, type ImageFormat, imageUrl } from './imageTypes';
import { uploadedBytes } from '../../platform/metrics';
import { keepStoredFile } from './storedFiles';
import { parseInput } from '../../platform/validation';

let sharpModule: typeof Sharp | undefined;

/**
 * sharp (libvips), loaded on the first upload rather than at start: most
 * requests never touch an image, and the library holds memory once loaded.
 * Its operation cache stays off: every input is a fresh temp file, so
 * libvips' cache would only hold descriptors of deleted files.
 */
function sharp(...args: Parameters<typeof Sharp>): ReturnType<typeof Sharp> {
  if (!sharpModule) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    sharpModule = require('sharp') as typeof Sharp;
    sharpModule.cache(false);
  }
  return sharpModule(...args);
}

export { imageUrl };

/** A file being uploaded (the shape graphql-upload-minimal resolves; the REST layer builds the same). */
export interface UploadedFile {
  filename: string;
  /** The Content-Type the part was sent with; null (or application/octet-stream) when the client did not say. */
  mimetype: string | null;
  createReadStream(): Readable;
}

interface ImageUpload {
  storeId: string;
  file: UploadedFile | Promise<UploadedFile>;
  productId?: string | null;
  alt?: string | null;
}

type ImageQuery = { include?: Prisma.ProductImageInclude; select?: Prisma.ProductImageSelect };

const Fields = z.object({
  productId: z.string().nullish(),
  alt: z
    .string()
    .trim()
    .max(1000)
    .nullish()
    .transform((v) => v || null),
});

/**
 * Accepts an image upload: refuses a declared type other than JPEG, PNG or WebP,
 * streams it to a temp file (size-limited), decides the stored type by magic
 * bytes (JPEG, PNG, WebP only), checks the pixel count from
 * the header before any decoding, re-encodes it in the same format (which drops
 * EXIF/GPS and applies the EXIF orientation), stores it content-addressed and
 * records it, attached to the product when one is given (appended last).
 */
export async function uploadProductImage(ctx: RequestContext, input: ImageUpload, query: ImageQuery = {}) {
  const config = ctx.config;
  let file: UploadedFile;
  let source: Readable;
  try {
    file = await input.file;
    source = file.createReadStream();
  } catch (e) {
    uploadError(e);
  }
  const work = path.join(config.tmpDir, `image-${randomBytes(8).toString('hex')}`);
  try {
    assertDeclaredType(file.mimetype);
    const fields = parseInput(Fields, { productId: input.productId, alt: input.alt });
    await mkdir(config.tmpDir, { recursive: true });
    // Cheap checks first; the upload is still drained (below) so the connection stays usable.
    if (fields.productId) await assertProduct(ctx, input.storeId, fields.productId);
    const format = await receive(source, `${work}.in`, config.upload.maxBytes);
    const encoded = await reencode(`${work}.in`, `${work}.out`, format, config.upload.maxPixels);
    const storage = storageFor(config);
    const stored = await storage.putFile(`${work}.out`, IMAGE_TYPES[format].ext);
    const data = {
      storeId: input.storeId,
      sha256: stored.sha256,
      mimeType: IMAGE_TYPES[format].mimeType,
      width: encoded.width,
      height: encoded.height,
      sizeBytes: stored.size,
      alt: fields.alt,
    };
    const productId = fields.productId;
    // An image of no product changes nothing a client can see: no event until it belongs to a product.
    if (!productId) {
      return await ctx.db.$transaction(async (tx) => {
        await keepStoredFile(tx, storage, stored, `${work}.out`);
        return tx.productImage.create({ ...query, data: { ...data, productId: null, position: 0 } });
      });
    }
    return await transaction(ctx, async (t) => {
      await keepStoredFile(t.tx, storage, stored, `${work}.out`);
      const before = await productBeforeWrite(t, input.storeId, productId, { images: PRODUCT_VIEW_INCLUDE.images });
      let image: Awaited<ReturnType<typeof t.tx.productImage.create>> | undefined;
      // The product row is locked (productBeforeWrite), so concurrent uploads to it get distinct positions.
      const after = await writeProductVersion(t, before, {}, {}, async () => {
        const { _max } = await t.tx.productImage.aggregate({ where: { productId }, _max: { position: true } });
        image = await t.tx.productImage.create({ ...query, data: { ...data, productId, position: (_max.position ?? -1) + 1 } });
      });
      emitProductEvent(t, 'product.image_added', after, { before });
      return image!;
    });
  } finally {
    // Never destroy an upload stream: busboy would stall on it; reading it to the end lets the request finish.
    if (!source.readableEnded) source.resume();
    await Promise.all([rm(`${work}.in`, { force: true }), rm(`${work}.out`, { force: true })]);
  }
}

async function assertProduct(ctx: RequestContext, storeId: string, productId: string) {
  if (!isUuid(productId) || !(await ctx.db.product.findFirst({ where: { id: productId, ...catalogOf(ctx, storeId) }, select: { id: true } }))) {
    throw notFound('Product');
  }
}

/**
 * Takes an image off its product. The stored file stays: it is content-addressed
 * and may be shared by other images with the same bytes; the worker's sweep
 * (services/storedFiles.ts) removes it once no image uses it.
 */
export async function removeProductImage(ctx: RequestContext, storeId: string, productId: string, imageId: string) {
  if (!isUuid(imageId)) throw notFound('Image');
  return transaction(ctx, async (t) => {
    const before = await productBeforeWrite(t, storeId, productId, { images: PRODUCT_VIEW_INCLUDE.images });
    if (!before.images.some((i) => i.id === imageId)) throw notFound('Image');
    const after = await writeProductVersion(t, before, {}, {}, () => t.tx.productImage.delete({ where: { id: imageId } }));
    emitProductEvent(t, 'product.image_removed', after, { before });
    return { id: imageId, productId };
  });
}

const ImageArrangement = z
  .array(z.object({ id: z.string().uuid(), alt: z.string().trim().max(500).nullish() }).strict())
  .max(100)
  .refine((list) => new Set(list.map((i) => i.id)).size === list.length, 'names an image more than once');

/**
 * Sets the order of a product's images (the list's order) and, where given, their alt text (null clears it;
 * left out keeps it). The list names every image of the product once. A new product version when anything
 * changed, with product.images_updated; the same arrangement again changes nothing.
 */
export async function arrangeProductImages(
  ctx: RequestContext,
  storeId: string,
  productId: string,
  input: unknown,
  opts: { expectedVersion?: number | null } = {},
  query: ImageQuery = {},
) {
  const list = parseInput(z.object({ images: ImageArrangement }), { images: input }).images;
  if (!isUuid(productId)) throw notFound('Product');
  return transaction(ctx, async (t) => {
    const before = await productBeforeWrite(t, storeId, productId, { images: PRODUCT_VIEW_INCLUDE.images });
    requireVersion(before, opts.expectedVersion);
    const current = new Map(before.images.map((i) => [i.id, i]));
    const unknown = list.filter((i) => !current.has(i.id)).map((i) => i.id);
    const missing = before.images.filter((i) => !list.some((l) => l.id === i.id)).map((i) => i.id);
    if (unknown.length || missing.length) {
      throw new AppError('validation_failed', 'images: name every image of the product once, in the order wanted', {
        errors: [
          ...unknown.map((id) => ({ field: 'images', code: 'unknown_image', message: `${id} is not an image of this product` })),
          ...missing.map((id) => ({ field: 'images', code: 'missing_image', message: `${id} is an image of this product and is missing from the list` })),
        ],
      });
    }
    const wanted = list.map((l, position) => ({ id: l.id, position, alt: l.alt === undefined ? current.get(l.id)!.alt : l.alt || null }));
    const order = { orderBy: [{ position: 'asc' as const }, { createdAt: 'asc' as const }] };
    const currentOrder = before.images.map((i) => i.id);
    if (wanted.every((w, i) => currentOrder[i] === w.id && current.get(w.id)!.alt === w.alt)) {
      return t.tx.productImage.findMany({ ...query, where: { productId }, ...order });
    }
    const after = await writeProductVersion(t, before, {}, {}, async () => {
      for (const w of wanted) await t.tx.productImage.update({ where: { id: w.id }, data: { position: w.position, alt: w.alt } });
    });
    emitProductEvent(t, 'product.images_updated', after, { before });
    return t.tx.productImage.findMany({ ...query, where: { productId }, ...order });
  });
}

const tooLarge = (maxBytes: number) =>
  new AppError('payload_too_large', `Images are limited to ${maxBytes} bytes`, { details: { max_bytes: maxBytes } });

const ACCEPTED_TYPES: string[] = Object.values(IMAGE_TYPES).map((t) => t.mimeType);

const unsupported = () =>
  new AppError('unsupported_media_type', 'Only JPEG, PNG and WebP images are accepted (the type is read from the file content)', {
    details: { accepted: ACCEPTED_TYPES },
  });

/** Types that say nothing about the content: the bytes decide. */
const UNDECLARED_TYPES = new Set(['', 'application/octet-stream']);

/**
 * The spec's rule (4.1): an upload declared as anything but image/jpeg, image/png or image/webp is
 * refused whatever its bytes. A declared image type is not trusted either: the bytes decide what
 * is stored (a PNG declared image/jpeg is stored as PNG), and they must be one of the three.
 */
function assertDeclaredType(declared: string | null | undefined): void {
  const type = (declared ?? '').split(';')[0].trim().toLowerCase();
  if (UNDECLARED_TYPES.has(type) || ACCEPTED_TYPES.includes(type)) return;
  throw new AppError('unsupported_media_type', `The file was sent as ${type}; only ${ACCEPTED_TYPES.join(', ')} are accepted`, {
    details: { accepted: ACCEPTED_TYPES, declared_type: type },
  });
}

/** The format the file's first bytes announce, or null. The declared name and Content-Type are not trusted. */
function sniffImageFormat(head: Buffer): ImageFormat | null {
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg';
  if (head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (head.toString('latin1', 0, 4) === 'RIFF' && head.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  return null;
}

/**
 * Copies the upload to `dest`, counting bytes and sniffing the type from the
 * first 12. After a failure the rest is read and discarded rather than
 * destroying the stream, so the request can complete.
 */
async function receive(source: Readable, dest: string, maxBytes: number): Promise<ImageFormat> {
  const out = createWriteStream(dest, { flags: 'wx' });
  let head = Buffer.alloc(0);
  let bytes = 0;
  let format: ImageFormat | null = null;
  let failure: AppError | null = null;
  try {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      if (failure) continue;
      bytes += chunk.length;
      if (bytes > maxBytes) {
        failure = tooLarge(maxBytes);
        continue;
      }
      if (head.length < 12) {
        head = Buffer.concat([head, chunk.subarray(0, 12 - head.length)]);
        if (head.length === 12 && !(format = sniffImageFormat(head))) {
          failure = unsupported();
          continue;
        }
      }
      if (!out.write(chunk)) await once(out, 'drain');
    }
  } finally {
    out.end();
    await finished(out).catch(() => {});
  }
  // graphql-upload-minimal ends an over-limit file early and only flags it (busboy's `truncated`).
  if ((source as Readable & { truncated?: boolean }).truncated) throw tooLarge(maxBytes);
  if (failure) throw failure;
  if (bytes === 0) throw new AppError('validation_failed', 'file: is empty', { errors: [{ field: 'file', code: 'empty', message: 'is empty' }] });
  format ??= sniffImageFormat(head);
  if (!format) throw unsupported();
  uploadedBytes.inc(bytes);
  return format;
}

async function reencode(src: string, dest: string, format: ImageFormat, maxPixels: number) {
  // metadata() reads only the header, so a pixel bomb is rejected before a single pixel is decoded.
  let meta: Sharp.Metadata;
  try {
    meta = await sharp(src, { limitInputPixels: false }).metadata();
  } catch {
    throw invalidImage(format);
  }
  if (meta.format !== format || !meta.width || !meta.height) throw invalidImage(format);
  const height = meta.pageHeight ?? meta.height;
  if (meta.width * height > maxPixels) {
    throw new AppError('image_dimensions_too_large', `The image is ${meta.width}x${height} pixels; at most ${maxPixels} pixels are accepted`, {
      details: { width: meta.width, height, max_pixels: maxPixels },
    });
  }
  // Output drops all metadata (EXIF, GPS, XMP) by default; rotate() first bakes the EXIF orientation into the pixels.
  const image = sharp(src, { limitInputPixels: maxPixels, sequentialRead: true }).rotate();
  const encoder = format === 'jpeg' ? image.jpeg({ quality: 85 }) : format === 'png' ? image.png() : image.webp({ quality: 85 });
  try {
    const info = await encoder.toFile(dest);
    return { width: info.width, height: info.height };
  } catch {
    throw invalidImage(format);
  }
}

const invalidImage = (format: ImageFormat) =>
  new AppError('invalid_image', `The file starts like ${IMAGE_TYPES[format].mimeType} but is not a readable image`);

/** graphql-upload-minimal reports limits and a file missing from the request as errors carrying an HTTP status. */
export function uploadError(e: unknown): never {
  const status = (e as { status?: number }).status;
  if (status === 413) throw new AppError('payload_too_large', (e as Error).message);
  if (status && status >= 400 && status < 500) throw new AppError('bad_request', (e as Error).message);
  throw e;
}
