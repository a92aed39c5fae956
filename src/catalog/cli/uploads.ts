/** CLI command that removes stored image files no image uses. */

import { sweepUnusedFiles } from '../services/storedFiles';
import { storageFor } from '../../platform/storage';
import { type CliCommand, defineCommand, optionalFlag, wholeNumberFlag } from '../../api/cli/command';

export const uploadCommands: CliCommand[] = [
  defineCommand<{ dryRun?: boolean; minAgeSeconds?: number }>({
    name: 'uploads sweep',
    description:
      'Remove stored image files that no image uses any more (the worker does this every UPLOAD_SWEEP_INTERVAL_MS). ' +
      'Prints {examined, removed, unused}: files old enough to consider, files removed, and the keys of the unused ones.',
    options: [
      optionalFlag('--dry-run', 'list the unused files, remove nothing'),
      wholeNumberFlag('--min-age-seconds <n>', 'only files written at least this long ago (default UPLOAD_SWEEP_MIN_AGE_SECONDS)', 60, 10 * 365 * 86_400),
    ],
    examples: ['npm run cli -- uploads sweep --dry-run', 'npm run cli -- uploads sweep'],
    run: async (f, ctx) => {
      const minAgeMs = f.minAgeSeconds === undefined ? ctx.config.uploadSweep.minAgeMs : f.minAgeSeconds * 1000;
      return sweepUnusedFiles(ctx.db, storageFor(ctx.config), { minAgeMs, now: ctx.now(), dryRun: f.dryRun });
    },
  }),
];
