/** GraphQL operation that generates a product description. */

import { generateDescription, MAX_WORDS, TONES } from '../services/descriptions';
import { builder, capability } from '../../api/graphql/builder';

const DescriptionTone = builder.enumType('DescriptionTone', { values: TONES });

const GeneratedDescription = builder.simpleObject('GeneratedDescription', {
  fields: (t) => ({
    description: t.string(),
    provider: t.string({ description: '"local" (built-in templates) or "openai" (an OpenAI-compatible API)' }),
    model: t.string(),
  }),
});

const DescriptionInput = builder.inputType('DescriptionInput', {
  description: 'Either productId (the product supplies name, category, tags and variant options) or name; fields sent override the product\'s.',
  fields: (t) => ({
    productId: t.id(),
    name: t.string(),
    category: t.string(),
    attributes: t.field({ type: 'JSON', description: 'Attribute name to value, e.g. {"material": "linen"}' }),
    tags: t.stringList(),
    tone: t.field({ type: DescriptionTone, description: 'Defaults to neutral' }),
    language: t.string({ description: 'Language tag, default "en"; the local provider writes en and de' }),
    maxWords: t.int({ description: `Word limit, ${MAX_WORDS.min}-${MAX_WORDS.max}, default ${MAX_WORDS.default}` }),
  }),
});

builder.mutationField('generateProductDescription', (t) =>
  t.field({
    type: GeneratedDescription,
    description: 'Writes a product description with the configured provider. Nothing is saved.',
    args: { storeId: t.arg.id({ required: true }), input: t.arg({ type: DescriptionInput, required: true }) },
    authScopes: (_root, args) => capability('manageCatalog', args.storeId),
    resolve: (_root, args, ctx) => {
      const input = Object.fromEntries(Object.entries(args.input).filter(([, v]) => v != null));
      return generateDescription(ctx, args.storeId, input);
    },
  }),
);
