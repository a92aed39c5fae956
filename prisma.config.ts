import { defineConfig } from 'prisma/config';

// The datasource URL is only read by Prisma CLI commands that talk to a
// database; this project applies migrations itself (src/platform/db/migrate.ts).
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://localhost/unused' },
});
