/** The query parameters by which a REST product write goes to the staged version: ?staged= and ?apply_to= (docs/staged-changes.md). */

import { boolParam, enumParam } from '../../api/rest/params';
import { problemResponse } from '../../api/rest/openapi';

/** `staged=true` and `apply_to=live|both` as the GraphQL variables of a write that takes them. */
export function stagingVariables(query: URLSearchParams) {
  const applyTo = enumParam(query, 'apply_to', ['live', 'both'] as const);
  return { staged: boolParam(query, 'staged'), applyTo: applyTo?.toUpperCase() };
}

/** The operation's declarations of those variables. */
export const STAGING_VARIABLES = '$staged: Boolean, $applyTo: StagedApplyTo';
export const STAGING_ARGUMENTS = 'staged: $staged, applyTo: $applyTo';

const applyToParameter = {
  name: 'apply_to',
  in: 'query',
  schema: { type: 'string', enum: ['live', 'both'] },
  description:
    'For a live write (staged=false) to a product with staged changes: both applies it to the current product and to the staged version in one transaction; live (default) answers 409 staged_changes_pending when the write changes anything staged',
};

/** The OpenAPI parameters of a write that can be staged (`stageable`) or only meets the 409 rule. */
export const stagingParameters = (stageable = true) => [
  ...(stageable
    ? [
        {
          name: 'staged',
          in: 'query',
          schema: { type: 'string', enum: ['true', 'false'] },
          description:
            "true: the write changes the product's staged version only, with the same checks (docs/staged-changes.md); the current product, the public API and product.updated keep the current one. If-Match applies as always",
        },
      ]
    : []),
  applyToParameter,
];

/** The responses the staging rules add to a write. */
export const stagingResponses = {
  '409': problemResponse('The product has staged changes and the write changes something staged, without apply_to=both (staged_changes_pending)'),
  '422': problemResponse('A staged write sends what is never staged (not_stageable, naming the fields), or a field is invalid (validation_failed)'),
};

