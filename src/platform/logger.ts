/** Logging: pino with JSON or pretty output, credentials redacted, and the per-request log line. */

import { AsyncLocalStorage } from 'node:async_hooks';
import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import type { PrettyOptions } from 'pino-pretty';
import type { Config } from './config';

type LogFormat = 'json' | 'pretty';

interface LogFormatChoice {
  format: LogFormat;
  /** Why pretty was asked for and JSON is written anyway; logged once at start. */
  warning?: string;
}

/**
 * JSON lines unless a person is watching: pretty lines when stdout is a terminal outside
 * production, JSON otherwise (pipes, files, containers, log shippers). LOG_FORMAT overrides.
 * pino-pretty is a development dependency, absent from a production install (`npm ci --omit=dev`):
 * then JSON is written, and an explicit LOG_FORMAT=pretty says why.
 */
export function chooseLogFormat(o: { configured: LogFormat | undefined; isTTY: boolean; env: string; prettyAvailable: boolean }): LogFormatChoice {
  const wanted = o.configured ?? (o.isTTY && o.env !== 'production' ? 'pretty' : 'json');
  if (wanted === 'json' || o.prettyAvailable) return { format: wanted };
  return {
    format: 'json',
    warning: o.configured === 'pretty' ? 'LOG_FORMAT=pretty needs pino-pretty (a development dependency, not installed here); logging JSON lines' : undefined,
  };
}

type PrettyFactory = (options: PrettyOptions) => DestinationStream;

/** Whether pino-pretty is installed, without loading it (memory a JSON-logging process never needs). */
function prettyInstalled(): boolean {
  try {
    require.resolve('pino-pretty');
    return true;
  } catch {
    return false;
  }
}

/** pino-pretty, loaded when the format chosen is pretty. */
function loadPretty(): PrettyFactory {
  return require('pino-pretty') as PrettyFactory;
}

/** Fields the pretty format puts into the message line instead of listing them below it. */
const IN_LINE = ['request_id', 'method', 'url', 'status', 'ms'];

/** One line per request (`GET /graphql 200 3.1 ms`), a short request id before every message that has one. */
const prettyOptions: PrettyOptions = {
  colorize: true,
  // In order with what the process writes to stdout itself (the demo banner).
  sync: true,
  translateTime: 'SYS:HH:MM:ss.l',
  ignore: ['pid', 'hostname', ...IN_LINE].join(','),
  messageFormat: (log, messageKey) => {
    const id = typeof log.request_id === 'string' ? `${log.request_id.slice(0, 8)} ` : '';
    if (log[messageKey] === 'request' && log.method) return `${id}${log.method} ${log.url} ${log.status} ${Number(log.ms).toFixed(1)} ms`;
    return `${id}${log[messageKey]}`;
  },
};

/**
 * The service's logger, in the format chooseLogFormat picks for this process's stdout (JSON lines
 * go to `destination` when one is given). Credentials never reach a line: see REDACT_PATHS,
 * redactUrl and scrubCredentials.
 */
export function createLogger(
  config: Pick<Config, 'env' | 'logLevel' | 'logFormat'>,
  stdout: { isTTY?: boolean } = process.stdout,
  destination?: DestinationStream,
): Logger {
  const choice = chooseLogFormat({ configured: config.logFormat, isTTY: !!stdout.isTTY, env: config.env, prettyAvailable: prettyInstalled() });
  const options: LoggerOptions = {
    level: config.logLevel,
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACT_PATHS, censor: REDACTED },
    serializers: { url: (url: unknown) => (typeof url === 'string' ? redactUrl(url) : url) },
    hooks: { streamWrite: scrubCredentials },
  };
  const log = choice.format === 'pretty' && !destination ? pino(options, loadPretty()(prettyOptions)) : destination ? pino(options, destination) : pino(options);
  if (choice.warning) log.warn(choice.warning);
  return log;
}

const REDACTED = '[REDACTED]';

/** Structured fields that hold credentials, wherever a log call puts them (request headers, bodies, errors). */
const SECRET_FIELDS = [
  'password', 'newPassword', 'secret', 'clientSecret', 'client_secret', 'token', 'accessToken', 'access_token',
  'refreshToken', 'refresh_token', 'apiKey', 'api_key', 'authorization', 'code_verifier', 'codeVerifier',
];
const SECRET_HEADERS = ['authorization', 'Authorization', 'cookie', 'set-cookie', '["x-api-key"]', '["proxy-authorization"]'];
const REDACT_PATHS = [
  ...SECRET_FIELDS.flatMap((f) => [f, `*.${f}`, `*.*.${f}`]),
  ...['headers', 'req.headers', 'request.headers', 'err.headers', 'err.config.headers', 'err.request.headers', 'err.response.headers'].flatMap((h) =>
    SECRET_HEADERS.map((k) => (k.startsWith('[') ? `${h}${k}` : `${h}.${k}`)),
  ),
];

/** Query parameter names whose value is a credential: password, *secret*, *token*, api_key, code (OAuth), signature... */
const SECRET_PARAM = /pass(word|wd)|secret|token|api_?key|access_?key|signature|credential|authori[sz]ation|^key$|^code$|^code_?verifier$|^sig$/i;
/** `password: "…"` in a GraphQL document and `"password": "…"` in JSON (a GET request's query or variables). */
const SECRET_NAME = String.raw`\w*(?:pass(?:word|wd)|secret|token|api_?key|code_?verifier)\w*`;
const INLINE_SECRET = new RegExp(String.raw`("?)(${SECRET_NAME})\1(\s*:\s*)"(?:[^"\\]|\\.)*"`, 'gi');
/** `password: $p` in a GraphQL document: the variable `p` holds a credential. */
const SECRET_VARIABLE = new RegExp(String.raw`\b${SECRET_NAME}\s*:\s*\$(\w+)`, 'gi');

/** Redacts `name: "…"` / `"name": "…"` for credential names, and `"v": "…"` for each variable in `variables`. */
function redactInline(text: string, variables: ReadonlySet<string>): string {
  const redacted = text.replace(INLINE_SECRET, (_m, quote: string, name: string, colon: string) => `${quote}${name}${quote}${colon}"${REDACTED}"`);
  if (!variables.size) return redacted;
  return redacted.replace(/"(\w+)"(\s*:\s*)"(?:[^"\\]|\\.)*"/g, (m, name: string, colon: string) => (variables.has(name) ? `"${name}"${colon}"${REDACTED}"` : m));
}

/**
 * A request URL fit for a log line: the values of credential parameters (`?api_key=`,
 * `?access_token=`, `?password=`, `?client_secret=`, `?token=`, `?code=`…) are replaced, and so are
 * credentials written inside other parameters (a GraphQL document or variables sent over GET).
 * Other parameters keep their encoding.
 */
export function redactUrl(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const hash = url.indexOf('#', at);
  const query = url.slice(at + 1, hash < 0 ? undefined : hash);
  const decoded = query.split('&').map((pair) => {
    const eq = pair.indexOf('=');
    return { pair, eq, name: eq < 0 ? '' : safeDecode(pair.slice(0, eq)), value: eq < 0 ? '' : safeDecode(pair.slice(eq + 1)) };
  });
  const secretVariables = new Set(decoded.flatMap(({ value }) => [...value.matchAll(SECRET_VARIABLE)].map((m) => m[1])));
  const pairs = decoded.map(({ pair, eq, name, value }) => {
    if (eq < 0) return pair;
    if (SECRET_PARAM.test(name)) return `${pair.slice(0, eq)}=${REDACTED}`;
    const redacted = scrubCredentials(redactInline(value, secretVariables));
    return redacted === value ? pair : `${pair.slice(0, eq)}=${encodeURIComponent(redacted)}`;
  });
  return `${url.slice(0, at)}?${pairs.join('&')}`;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

/**
 * The service's credentials by their shape: dashboard tokens, API keys, OAuth codes, access and
 * refresh tokens and client secrets (svc_…; OAuth client ids, svc_oci_…, are public) and webhook
 * signing secrets (whsec_…). Whatever field or message one ends up in, it leaves the line.
 */
const CREDENTIAL = /\b(svc_(?!oci_)[a-z]+_)[A-Za-z0-9_]{8,}|\b(whsec_)(?:[A-Za-z0-9+/=]|%2[BbFf]|%3[Dd])+/g; // whsec_ is base64, maybe URL-encoded

/** Applied to every serialized log line: credential-shaped strings are cut to their prefix. */
export function scrubCredentials(line: string): string {
  return line.replace(CREDENTIAL, (_m, svc: string | undefined, whsec: string | undefined) => `${svc ?? whsec}${REDACTED}`);
}

/** The logger of the request being handled (with its request_id), for code that runs without its context (Yoga's error masking). */
const requestLogs = new AsyncLocalStorage<Logger>();

export const withRequestLog = <T>(log: Logger, run: () => T): T => requestLogs.run(log, run);

export const requestLog = (fallback: Logger): Logger => requestLogs.getStore() ?? fallback;
