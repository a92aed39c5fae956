/** The image formats the service stores, and where a stored image is served. */
export const IMAGE_TYPES = {
  jpeg: { mimeType: 'image/jpeg', ext: 'jpg' },
  png: { mimeType: 'image/png', ext: 'png' },
  webp: { mimeType: 'image/webp', ext: 'webp' },
} as const;
export type ImageFormat = keyof typeof IMAGE_TYPES;

const EXT_BY_MIME: Record<string, string> = Object.fromEntries(Object.values(IMAGE_TYPES).map((t) => [t.mimeType, t.ext]));

/** Public URL of a stored image: its content address under /uploads. */
export function imageUrl(baseUrl: string, image: { sha256: string; mimeType: string }): string {
  return `${baseUrl}/uploads/${image.sha256}.${EXT_BY_MIME[image.mimeType]}`;
}
