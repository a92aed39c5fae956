import pino, { type DestinationStream, type Logger } from 'pino';
import type { PrettyOptions } from 'pino-pretty';
import type { Config } from './config';

export type LogFormat = 'json' | 'pretty';

export interface LogFormatChoice {
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

/** pino-pretty, when installed. */
function loadPretty(): PrettyFactory | null {
  try {
    return require('pino-pretty') as PrettyFactory;
  } catch {
    return null;
  }
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

/** The service's logger, in the format chooseLogFormat picks for this process's stdout. */
export function createLogger(config: Pick<Config, 'env' | 'logLevel' | 'logFormat'>, stdout: { isTTY?: boolean } = process.stdout): Logger {
  const pretty = loadPretty();
  const choice = chooseLogFormat({ configured: config.logFormat, isTTY: !!stdout.isTTY, env: config.env, prettyAvailable: !!pretty });
  const options = { level: config.logLevel, base: undefined, timestamp: pino.stdTimeFunctions.isoTime };
  const log = choice.format === 'pretty' && pretty ? pino(options, pretty(prettyOptions)) : pino(options);
  if (choice.warning) log.warn(choice.warning);
  return log;
}
