/** The FieldChange type: one changed field, as the change history and a product's staged difference show it. */

import { builder } from './builder';

export const FieldChange = builder.simpleObject('FieldChange', {
  description: 'One changed field: its value before and after, as the REST API shows it.',
  fields: (t) => ({
    field: t.string(),
    previous: t.field({ type: 'JSON', nullable: true }),
    next: t.field({ type: 'JSON', nullable: true }),
  }),
});
