/** GraphQL types and operations for product images: upload, remove, arrange. */

import { productWrite } from '../services/stagedChanges';
import { APPLY_TO_ARG_DOC, STAGED_ARG_DOC, StagedApplyTo, writeTarget } from './stagedArgs';
import type { FileUpload } from 'graphql-upload-minimal';
import * as images from '../services/images';
import { AppError } from '../../platform/errors';
import { builder, capability, type GraphQLContext } from '../../api/graphql/builder';
import { inCatalogMode, MODE_ARG_DESCRIPTION, ServiceMode } from '../../api/graphql/modes';

/**
 * The upload with the Content-Type its part was sent with: graphql-upload-minimal (busboy) reports a
 * part without one as text/plain, which the image rule would refuse. An upload the REST layer built
 * already carries the type as sent.
 */
async function asSent(file: Promise<FileUpload>, ctx: GraphQLContext): Promise<images.UploadedFile> {
  const upload = await file;
  if (!ctx.uploadPartTypes) return upload;
  return { ...upload, mimetype: ctx.uploadPartTypes.fileType(upload.fieldName, upload.mimetype) };
}

builder.prismaObject('ProductImage', {
  description: 'An uploaded product image, re-encoded (no EXIF/GPS) and stored under its SHA-256.',
  fields: (t) => ({
    id: t.exposeID('id'),
    productId: t.exposeID('productId', { nullable: true, description: 'The product it is attached to, if any' }),
    url: t.string({
      description: 'Stable URL (content-addressed, served with immutable cache headers)',
      select: { sha256: true, mimeType: true },
      resolve: (image, _args, ctx) => images.imageUrl(ctx.baseUrl, image),
    }),
    width: t.exposeInt('width'),
    height: t.exposeInt('height'),
    mimeType: t.exposeString('mimeType', { description: 'image/jpeg, image/png or image/webp, from the file content' }),
    sizeBytes: t.exposeInt('sizeBytes', { description: 'Size of the stored (re-encoded) file' }),
    sha256: t.exposeString('sha256', { description: 'SHA-256 (hex) of the stored file' }),
    alt: t.exposeString('alt', { nullable: true }),
    position: t.exposeInt('position', { description: 'Order among the product\'s images, from 0' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

builder.prismaObjectField('Product', 'images', (t) =>
  t.relation('images', {
    description: 'Images in display order',
    args: { first: t.arg.int({ description: 'Only the first this many (a list\'s thumbnail: first: 1); all when left out. Not negative (validation_failed)' }) },
    query: (args) => {
      if (args.first != null && args.first < 0) {
        throw new AppError('validation_failed', 'first: must be 0 or more', { errors: [{ field: 'first', code: 'too_small', message: 'must be 0 or more' }] });
      }
      return { orderBy: [{ position: 'asc' }, { createdAt: 'asc' }], ...(args.first != null ? { take: args.first } : {}) };
    },
  }),
);

builder.mutationFields((t) => ({
  uploadProductImage: t.prismaField({
    type: 'ProductImage',
    description:
      'Uploads a JPEG, PNG or WebP image (GraphQL multipart request). A file part declared as another type is refused (unsupported_media_type); the stored type is read from the content; limits: UPLOAD_MAX_BYTES (10 MB) and UPLOAD_MAX_PIXELS (40 MP). With productId the image is appended to that product\'s images.',
    args: {
      storeId: t.arg.id({ required: true }),
      mode: t.arg({ type: ServiceMode, description: MODE_ARG_DESCRIPTION }),
      file: t.arg({ type: 'Upload', required: true }),
      productId: t.arg.id(),
      alt: t.arg.string(),
    },
    authScopes: (_root, args) => capability('changeCatalog', args.storeId),
    resolve: (query, _root, args, ctx) => images.uploadProductImage(inCatalogMode(ctx, args.mode), { ...args, file: asSent(args.file, ctx) }, query),
  }),
}));

const RemovedProductImage = builder.simpleObject('RemovedProductImage', {
  fields: (t) => ({ id: t.id(), productId: t.id() }),
});

builder.mutationField('removeProductImage', (t) =>
  t.field({
    type: RemovedProductImage,
    description: "Takes an image off its product (a new product version). The stored file stays: other images may share its content.",
    args: { storeId: t.arg.id({ required: true }), productId: t.arg.id({ required: true }), id: t.arg.id({ required: true }), mode: t.arg({ type: ServiceMode, description: MODE_ARG_DESCRIPTION }) },
    authScopes: (_root, args) => capability('changeCatalog', args.storeId),
    resolve: (_root, args, ctx) => images.removeProductImage(inCatalogMode(ctx, args.mode), args.storeId, args.productId, args.id),
  }),
);

const ProductImageArrangement = builder.inputType('ProductImageArrangement', {
  fields: (t) => ({
    id: t.id({ required: true }),
    alt: t.string({ description: 'The image\'s alt text; null clears it; left out keeps it.' }),
  }),
});

builder.mutationField('arrangeProductImages', (t) =>
  t.prismaField({
    type: ['ProductImage'],
    description:
      "Sets the order of a product's images (the list's order; name every image once) and their alt text. A new product version with product.images_updated when anything changed. " +
      'Pass expectedVersion to fail with precondition_failed instead of overwriting a newer change.',
    args: {
      storeId: t.arg.id({ required: true }),
      productId: t.arg.id({ required: true }),
      images: t.arg({ type: [ProductImageArrangement], required: true }),
      expectedVersion: t.arg.int({ description: 'The product version you read.' }),
      mode: t.arg({ type: ServiceMode, description: MODE_ARG_DESCRIPTION }),
      staged: t.arg.boolean({ description: STAGED_ARG_DOC }),
      applyTo: t.arg({ type: StagedApplyTo, description: APPLY_TO_ARG_DOC }),
    },
    authScopes: (_root, args) => capability('changeCatalog', args.storeId),
    resolve: (query, _root, args, ctx) =>
      productWrite(inCatalogMode(ctx, args.mode), args.storeId, args.productId, writeTarget(args), { unstageable: [], touchesStaged: true }, (t, checkVersion) =>
        images.arrangeProductImages(t, args.storeId, args.productId, args.images, { expectedVersion: checkVersion ? args.expectedVersion : null }, query),
      ),
  }),
);
