#!/bin/sh
# Stand-in for Prisma's native schema engine, which this project never downloads:
# `prisma generate` only needs the variable to point at an executable, and
# migrations run through the wasm engine (src/platform/db/migrate.ts).
echo "The native Prisma schema engine is not used here: run 'npm run db:migrate' or 'npm run db:migration -- <name>'." >&2
exit 1
