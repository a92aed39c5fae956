/** The one slug format, shared by SEO records and categories. */

import { z } from 'zod';

/** Lowercase letters and digits in words joined by single hyphens: the one slug format (SEO records, categories). */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export const slug = (maxLength: number) =>
  z.string().trim().max(maxLength).regex(SLUG_PATTERN, 'must be lowercase letters, digits and single hyphens, e.g. "red-running-shoe"');
