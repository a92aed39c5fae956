/** Product description generation: the OpenAI-compatible provider, the local one, and picking between them. */

import type OpenAI from 'openai';
import { z } from 'zod';
import type { Config } from '../../platform/config';
import type { RequestContext } from '../../platform/context';
import { AppError, notFound } from '../../platform/errors';
import { MAX_WORDS, TONES, type DescriptionBrief, type DescriptionProvider } from './descriptionTypes';
import { catalogOf } from './catalogScope';
import { LocalProvider } from './localDescriptions';
import { isUuid } from '../../kernel/ids';
import { parseInput, withOpaqueKeysInMessages } from '../../platform/validation';

export { MAX_WORDS, TONES } from './descriptionTypes';

type AiConfig = Config['ai'];
type OpenAiConfig = Extract<AiConfig, { kind: 'openai' }>;

/**
 * Any OpenAI-compatible chat completions API (OpenAI, Ollama, vLLM...). No
 * retries, and one deadline that covers the whole exchange: the SDK's own
 * timeout stops at the response headers, so a provider that stalls while
 * sending the body is cut off by our signal.
 */
export class OpenAICompatibleProvider implements DescriptionProvider {
  readonly name = 'openai';
  readonly model: string;
  private readonly client: OpenAI;
  /** The SDK, loaded when a provider is made rather than at start (memory a service without AI never needs). */
  private readonly sdk: typeof OpenAI;

  constructor(private readonly cfg: OpenAiConfig) {
    this.model = cfg.model;
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    this.sdk = (require('openai') as { default: typeof OpenAI }).default;
    this.client = new this.sdk({ baseURL: cfg.baseUrl, apiKey: cfg.apiKey, timeout: cfg.timeoutMs, maxRetries: 0 });
  }

  async generate(brief: DescriptionBrief): Promise<string> {
    const signal = AbortSignal.timeout(this.cfg.timeoutMs);
    try {
      const res = await this.client.chat.completions.create(
        {
          model: this.model,
          temperature: 0.7,
          messages: [
            { role: 'system', content: systemPrompt(brief) },
            { role: 'user', content: JSON.stringify({ name: brief.name, category: brief.category, attributes: brief.attributes, tags: brief.tags }) },
          ],
        },
        { signal },
      );
      const text = res.choices?.[0]?.message?.content?.trim();
      if (!text) throw new AppError('provider_error', 'The description provider returned no text');
      return capWords(text, brief.maxWords);
    } catch (e) {
      if (e instanceof AppError) throw e;
      if (signal.aborted || e instanceof this.sdk.APIConnectionTimeoutError) {
        throw new AppError('provider_timeout', `The description provider did not answer within ${this.cfg.timeoutMs} ms`, { cause: e });
      }
      // The upstream message may echo request details; report only its status.
      const status = e instanceof this.sdk.APIError ? e.status : undefined;
      throw new AppError('provider_error', status ? `The description provider failed (HTTP ${status})` : 'The description provider could not be reached', {
        cause: e,
        ...(status ? { details: { provider_status: status } } : {}),
      });
    }
  }
}

function systemPrompt(b: DescriptionBrief): string {
  const language = new Intl.DisplayNames(['en'], { type: 'language' }).of(b.language) ?? b.language;
  return [
    'You write product descriptions for an online store.',
    `Write in ${language}, in a ${b.tone} tone, 2 to 5 sentences and at most ${b.maxWords} words.`,
    'Plain text only: no markdown, headings, lists or quotation marks around the text.',
    'Use only the facts in the JSON the user sends; do not invent specifications, prices or claims.',
  ].join(' ');
}

/** Models overshoot word limits; cut at the last sentence end that fits, else at the word limit. */
function capWords(text: string, maxWords: number): string {
  const words = text.trim().split(/\s+/);
  if (words.length <= maxWords) return text.trim();
  const head = words.slice(0, maxWords).join(' ');
  if (/[.!?]$/.test(head)) return head;
  const end = Math.max(head.lastIndexOf('. '), head.lastIndexOf('! '), head.lastIndexOf('? '));
  return end > 0 ? head.slice(0, end + 1) : head.replace(/[,;:]?$/, '…');
}

const providers = new WeakMap<AiConfig, DescriptionProvider>();

/** One provider (and HTTP client) per configuration. */
function providerFor(ai: AiConfig): DescriptionProvider {
  let p = providers.get(ai);
  if (!p) {
    p = ai.kind === 'openai' ? new OpenAICompatibleProvider(ai) : new LocalProvider();
    providers.set(ai, p);
  }
  return p;
}

const languageTag = z
  .string()
  .trim()
  .refine((s) => {
    try {
      return Intl.getCanonicalLocales(s).length === 1;
    } catch {
      return false;
    }
  }, 'must be a language tag such as "en" or "de-CH"')
  .transform((s) => s.split('-')[0].toLowerCase());

const DescriptionInput = z
  .object({
    productId: z.string().optional(),
    name: z.string().trim().min(1, 'must not be empty').max(255).optional(),
    category: z.string().trim().min(1, 'must not be empty').max(128).optional(),
    attributes: z
      .record(z.string().trim().min(1).max(64), z.union([z.string(), z.number(), z.boolean()]).transform(String).pipe(z.string().trim().min(1).max(255)))
      .refine((a) => Object.keys(a).length <= 30, 'at most 30 attributes')
      .optional(),
    tags: z.array(z.string().trim().min(1).max(64)).max(20).optional(),
    tone: z.enum(TONES).default('neutral'),
    language: languageTag.default('en'),
    maxWords: z.number().int().min(MAX_WORDS.min).max(MAX_WORDS.max).default(MAX_WORDS.default),
  })
  .refine((v) => v.productId !== undefined || v.name !== undefined, { path: ['name'], message: 'is required unless product_id is given' });

type DescriptionRequest = z.input<typeof DescriptionInput>;

/**
 * Generates a product description. With `productId` the product supplies the
 * name, category (first by name), tags and attributes (its variant options);
 * fields sent alongside take precedence, attributes merging over the product's.
 */
/** Nothing is saved, so nothing is recorded. */
export async function generateDescription(ctx: RequestContext, storeId: string, input: DescriptionRequest) {
  const ai = ctx.config.ai;
  const data = withOpaqueKeysInMessages(() => parseInput(DescriptionInput, input), /^(attributes)\.(.*)$/s);
  const provider = providerFor(ai);
  if (provider.languages && !provider.languages.includes(data.language)) {
    const supported = provider.languages.join(', ');
    throw new AppError('validation_failed', `language: "${data.language}" is not supported by the ${provider.name} provider (supported: ${supported})`, {
      errors: [{ field: 'language', code: 'unsupported_language', message: `supported: ${supported}` }],
      details: { supported_languages: provider.languages },
    });
  }
  const fromProduct = data.productId !== undefined ? await productFacts(ctx, storeId, data.productId) : undefined;
  const brief: DescriptionBrief = {
    name: data.name ?? fromProduct!.name,
    category: data.category ?? fromProduct?.category,
    attributes: {
      ...fromProduct?.attributes,
      ...Object.fromEntries(Object.entries(data.attributes ?? {}).map(([k, v]) => [k, [v]])),
    },
    tags: data.tags ?? fromProduct?.tags ?? [],
    tone: data.tone,
    language: data.language,
    maxWords: data.maxWords,
  };
  const description = await provider.generate(brief);
  return { description, provider: provider.name, model: provider.model };
}

async function productFacts(ctx: RequestContext, storeId: string, productId: string) {
  if (!isUuid(productId)) throw notFound('Product');
  const p = await ctx.db.product.findFirst({
    where: { id: productId, ...catalogOf(ctx, storeId) },
    select: {
      name: true,
      tags: true,
      categories: { select: { category: { select: { name: true } } } },
      variants: { select: { options: true }, orderBy: [{ position: 'asc' }, { sku: 'asc' }] },
    },
  });
  if (!p) throw notFound('Product');
  const attributes: Record<string, string[]> = {};
  for (const v of p.variants) {
    for (const [k, value] of Object.entries(v.options as Record<string, string>)) {
      attributes[k] ??= [];
      if (!attributes[k].includes(value)) attributes[k].push(value);
    }
  }
  const category = p.categories.map((c) => c.category.name).sort()[0];
  return { name: p.name, tags: p.tags, category, attributes };
}
