/** REST routes for product images: upload (multipart) and remove. */

import { Upload } from 'graphql-upload-minimal';
import { requireCapability } from '../../access/auth/authorization';
import { AppError } from '../../platform/errors';
import { isMultipart, readMultipartForm, type SpooledFile } from '../../api/rest/multipart';
import type { RestRoute } from '../../api/rest/routes';
import { IMAGE, selectionOf } from '../services/views';

const BASE = '/api/v1/merchant/stores/:storeId';

const IMAGE_FIELDS = selectionOf(IMAGE);

/** The Upload value the GraphQL `Upload` scalar accepts, for a file the REST layer has already received. */
function uploadOf(file: SpooledFile): Upload {
  const upload = new Upload();
  // resolve() exists at runtime (processRequest uses it) but is missing from the package's typings.
  // The mimetype stays as sent, null when the part had none (the image rule tells the two apart).
  (upload as unknown as { resolve(f: SpooledFile): void }).resolve(file);
  return upload;
}

export const imageRoutes: RestRoute[] = [
  {
    method: 'POST',
    path: `${BASE}/products/images`,
    operationId: 'uploadProductImage',
    summary: 'Upload a product image (multipart/form-data, file field "image" or "file"; JPEG, PNG or WebP, declared as such or undeclared)',
    auth: 'dashboard',
    multipart: true,
    operation: /* GraphQL */ `
      mutation UploadProductImage($storeId: ID!, $file: Upload!, $productId: ID, $alt: String) {
        uploadProductImage(storeId: $storeId, file: $file, productId: $productId, alt: $alt) { ${IMAGE_FIELDS} }
      }`,
    variables: async ({ req, params, ctx }) => {
      // The mutation checks too; checking before the body is read keeps an unauthorised client from making the server spool an upload.
      requireCapability(ctx, 'changeCatalog', params.storeId);
      if (!isMultipart(req)) throw new AppError('unsupported_media_type', 'Send the image as multipart/form-data with a file field "image"');
      const form = await readMultipartForm(req, { fileFields: ['image', 'file'], maxFileBytes: ctx.config.upload.maxBytes, tmpDir: ctx.config.tmpDir });
      const { file, fields } = form;
      if (!file) {
        throw new AppError('validation_failed', 'image: a file field "image" (or "file") is required', {
          errors: [{ field: 'image', code: 'required', message: 'a file field "image" (or "file") is required' }],
        });
      }
      if (file.truncated) {
        await file.discard();
        throw new AppError('payload_too_large', `Images are limited to ${ctx.config.upload.maxBytes} bytes`, { details: { max_bytes: ctx.config.upload.maxBytes } });
      }
      return {
        storeId: params.storeId,
        file: uploadOf(file),
        productId: fields.product_id || undefined,
        alt: fields.alt,
      };
    },
    respond: (data) => ({ status: 201, body: { data: data.uploadProductImage }, headers: { Location: data.uploadProductImage.url } }),
    openapi: {
      requestBody: {
        required: true,
        content: {
          'multipart/form-data': {
            schema: {
              type: 'object',
              properties: {
                image: {
                  type: 'string',
                  format: 'binary',
                  description:
                    'JPEG, PNG or WebP, at most 10 MB and 40 megapixels (configurable). The part\'s Content-Type, when sent, must be image/jpeg, image/png, image/webp or application/octet-stream (else 415); the stored type is read from the content',
                },
                file: { type: 'string', format: 'binary', description: 'Accepted instead of image' },
                product_id: { type: 'string', description: 'Attach the image to this product (appended after its other images)' },
                alt: { type: 'string', maxLength: 1000 },
              },
            },
          },
        },
      },
      responses: {
        '201': {
          description: 'The stored image; Location is its URL',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: {
                  data: {
                    type: 'object',
                    properties: {
                      id: { type: 'string' }, url: { type: 'string' }, width: { type: 'integer' }, height: { type: 'integer' },
                      mime_type: { type: 'string', enum: ['image/jpeg', 'image/png', 'image/webp'] }, size_bytes: { type: 'integer' },
                      sha256: { type: 'string' }, alt: { type: ['string', 'null'] }, product_id: { type: ['string', 'null'] },
                      position: { type: 'integer' }, created_at: { type: 'string', format: 'date-time' },
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
  },
  {
    method: 'DELETE',
    path: `${BASE}/products/:productId/images/:imageId`,
    operationId: 'removeProductImage',
    summary: "Take an image off its product (the product's version moves on)",
    auth: 'dashboard',
    operation: `mutation RemoveProductImage($storeId: ID!, $productId: ID!, $id: ID!) {
      removeProductImage(storeId: $storeId, productId: $productId, id: $id) { id }
    }`,
    variables: ({ params }) => ({ storeId: params.storeId, productId: params.productId, id: params.imageId }),
    respond: () => ({ status: 204 }),
    openapi: { responses: { '204': { description: 'Removed' } } },
  },
];
