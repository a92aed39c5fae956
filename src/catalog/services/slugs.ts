/** The one slug format, shared by SEO records, their translations and categories, and the SEO fields' limits. */

import { z } from 'zod';

/** Lowercase letters and digits in words joined by single hyphens: the one slug format (SEO records, categories). */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export const slug = (maxLength: number) =>
  z.string().trim().max(maxLength).regex(SLUG_PATTERN, 'must be lowercase letters, digits and single hyphens, e.g. "red-running-shoe"');

/** Longest SEO title, description (in characters) and slug of a product, and of its translations. */
export const SEO_LIMITS = { title: 70, description: 320, slug: 200, url: 2048 } as const;
