#!/bin/sh
# Offline `prisma generate`: see scripts/no-schema-engine.sh.
cd "$(dirname "$0")/.." || exit 1
PRISMA_SCHEMA_ENGINE_BINARY="$PWD/scripts/no-schema-engine.sh" PRISMA_HIDE_UPDATE_MESSAGE=1 npx --no-install prisma generate || exit 1
# The client loads its query compiler's wasm from a module holding it as base64 text, with import(): the module
# stays loaded, so the text (its source and its export, 4.6 MB) stays in the heap for the life of the process.
# Read with require and dropped from the module cache, it is freed once compiled.
exec node -e '
const fs = require("node:fs");
const file = "src/generated/prisma/internal/class.ts";
const text = fs.readFileSync(file, "utf8");
const loaded = /const \{ wasm \} = await import\(("[^"]+wasm-base64\.js")\)/;
if (!loaded.test(text)) { console.error(`${file}: the query compiler is no longer loaded as expected; see scripts/generate.sh`); process.exit(1); }
fs.writeFileSync(file, text.replace(loaded, "const source = require.resolve($1); const { wasm } = require(source); delete require.cache[source]"));
'
