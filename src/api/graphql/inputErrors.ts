/** /graphql's variables checked before execution: every type and rule error of an input at once. */

import { type DocumentNode, getOperationAST } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { type FieldNaming, inputErrors, type VariableType, variableTypesOf } from '../inputCheck';
import { invalidVariables } from './requestErrors';

/** The variable that carries a mutation's input: its fields are named without it (`name`, `variants.0.sku`), as the services name them. */
const INPUT_VARIABLE = 'input';

/** /graphql names fields by the schema's names, from the variable that holds them. */
const GRAPHQL_NAMING: FieldNaming = {
  variable: (name) => (name === INPUT_VARIABLE ? [] : [name]),
  field: (_obj, name) => name,
};

/** Documents are parsed once and cached (Yoga's parser cache): so are their variables' types, per operation. */
const typesOf = new WeakMap<DocumentNode, Map<string, VariableType[]>>();

/**
 * Refuses an operation whose variables do not fit their types with one invalid_variables error whose
 * `extensions.errors` lists every problem: each type error, and the rule errors of the same inputs
 * (src/api/inputCheck.ts). Without it graphql-js answers the type errors alone, and the rule errors of
 * the same submit come one round later.
 */
export function everyInputError(): Plugin {
  return {
    onExecute({ args, setResultAndStopExecution }) {
      let byOperation = typesOf.get(args.document);
      if (!byOperation) typesOf.set(args.document, (byOperation = new Map()));
      const key = args.operationName ?? '';
      let variables = byOperation.get(key);
      if (!variables) {
        const operation = getOperationAST(args.document, args.operationName);
        // No operation to run (graphql-js reports it), or a variable of an unknown type (validation refused it): nothing to add.
        variables = operation ? variableTypesOf(args.schema, operation) : [];
        if (variables.some((v) => !v.type)) variables = [];
        byOperation.set(key, variables);
      }
      if (!variables.length) return;
      const errors = inputErrors(variables, (args.variableValues ?? {}) as Record<string, unknown>, GRAPHQL_NAMING);
      if (errors.length) setResultAndStopExecution({ errors: [invalidVariables(errors)] });
    },
  };
}
