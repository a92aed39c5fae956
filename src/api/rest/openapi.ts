/** The pieces a route's `openapi` fragment is written with; src/openapi.ts assembles the document. */

export type Json = Record<string, unknown>;

/** What a route's `openapi` field may hold. `components` are merged into the document's (identical duplicates allowed). */
export type OpenApiFragment = {
  description?: string;
  parameters?: Json[];
  requestBody?: Json;
  responses?: Record<string, Json>;
  components?: Partial<Record<'schemas' | 'parameters' | 'responses' | 'headers', Record<string, Json>>>;
};

export const jsonContent = (schema: Json) => ({ 'application/json': { schema } });
export const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });
/** A problem+json response; the description says which codes it carries. */
export const problemResponse = (description: string) => ({ $ref: '#/components/responses/Problem', description });
