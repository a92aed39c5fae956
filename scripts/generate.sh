#!/bin/sh
# Offline `prisma generate`: see scripts/no-schema-engine.sh.
cd "$(dirname "$0")/.." || exit 1
PRISMA_SCHEMA_ENGINE_BINARY="$PWD/scripts/no-schema-engine.sh" PRISMA_HIDE_UPDATE_MESSAGE=1 npx --no-install prisma generate || exit 1
exec node scripts/prisma-memory.cjs
