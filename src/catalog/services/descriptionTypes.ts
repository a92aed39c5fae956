/**
 * What description providers share: the brief they write from, the provider
 * contract, and the accepted tones and word limits. Imports nothing, so both
 * descriptions.ts and the providers it picks from can depend on it.
 */

export const TONES = ['neutral', 'friendly', 'luxury', 'playful'] as const;
export type Tone = (typeof TONES)[number];
export const MAX_WORDS = { default: 120, min: 10, max: 500 } as const;

/** What a provider writes from: facts about the product plus how to write. */
export interface DescriptionBrief {
  name: string;
  category?: string;
  /** Attribute name to its value(s); several values when taken from variant options (e.g. colors). */
  attributes: Record<string, string[]>;
  tags: string[];
  tone: Tone;
  /** Primary language subtag, e.g. "en". */
  language: string;
  maxWords: number;
}

export interface DescriptionProvider {
  /** Reported to the caller as `provider`. */
  readonly name: string;
  readonly model: string;
  /** Primary language subtags the provider writes; undefined: any language. */
  readonly languages?: readonly string[];
  /** Resolves with the text or rejects with AppError provider_error / provider_timeout. */
  generate(brief: DescriptionBrief): Promise<string>;
}
