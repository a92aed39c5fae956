import type { Logger } from 'pino';
import type { PublicCredential } from './auth/credentials';
import type { Viewer } from './auth/permissions';
import type { Config } from './config';
import type { PartTypes } from './rest/multipart';

export type Mode = 'test' | 'live';

/** Everything a request knows about itself, independent of the surface (GraphQL or REST) it came in on. */
export interface Context {
  requestId: string;
  config: Config;
  log: Logger;
  /** Origin used for absolute URLs (image URLs, Location headers). */
  baseUrl: string;
  /** Dashboard user authenticated by a bearer token, if any. */
  viewer: Viewer | null;
  /** Public API credential (API key or OAuth token), if any. */
  credential: PublicCredential | null;
  /** Mode (test/live) the request is served in; set for public API requests. */
  mode: Mode | null;
  /** For a GraphQL multipart request: the Content-Type each file part was sent with (null: none). */
  uploadPartTypes?: PartTypes;
}
