/** The error code pages under /docs/errors. */

import { type ErrorCode, STATUS_BY_CODE } from '../../platform/errors';
import { problemTitle } from '../rest/problem';
import { ERROR_CATALOG, ERROR_PAGES_PATH } from './errorCatalog';
import { escapeHtml, htmlPage, prose } from './html';
import { exampleGraphQLError, exampleProblem } from './problemExamples';

const CODES = Object.keys(STATUS_BY_CODE) as ErrorCode[];

export const isErrorCode = (code: string): code is ErrorCode => Object.hasOwn(STATUS_BY_CODE, code);

const nav = `<nav><a href="/docs">API reference</a> · <a href="${ERROR_PAGES_PATH}">All error codes</a></nav>`;

/** The page a problem's `type` points at: what the code means, its status, what to do, and an example. */
export function errorPage(code: ErrorCode, baseUrl: string): string {
  const status = STATUS_BY_CODE[code];
  const { meaning, action, graphqlOnly } = ERROR_CATALOG[code];
  const example = JSON.stringify(graphqlOnly ? exampleGraphQLError(code) : exampleProblem(baseUrl, code), null, 2);
  const shape = graphqlOnly
    ? `Only <code>/graphql</code> answers with this code, in GraphQL’s error shape; <code>extensions.code</code> is stable, <code>message</code> is for people and may change.`
    : `The body of the response (<code>application/problem+json</code>, RFC 9457); <code>code</code> is stable, <code>detail</code> is for people and may change. Quote <code>request_id</code> when reporting a problem.`;
  return htmlPage(
    `${code} · Store catalog API errors`,
    `${nav}
<main>
  <h1><code id="code">${code}</code></h1>
  <p class="status">HTTP <strong id="status">${status}</strong> ${escapeHtml(problemTitle(status))}</p>
  <h2>What it means</h2>
  <p id="meaning">${prose(meaning)}</p>
  <h2>What to do</h2>
  <p id="action">${prose(action)}</p>
  <h2>Example</h2>
  <p>${shape}</p>
  <pre>${escapeHtml(example)}</pre>
</main>`,
  );
}

/** /docs/errors: every code, by status. */
export function errorIndexPage(): string {
  const rows = [...CODES]
    .sort((a, b) => STATUS_BY_CODE[a] - STATUS_BY_CODE[b] || a.localeCompare(b))
    .map(
      (code) =>
        `<tr><td>${STATUS_BY_CODE[code]}</td><td><a href="${ERROR_PAGES_PATH}/${code}"><code>${code}</code></a></td><td>${prose(ERROR_CATALOG[code].meaning)}</td></tr>`,
    )
    .join('\n      ');
  return htmlPage(
    'Error codes · Store catalog API',
    `${nav}
<main>
  <h1>Error codes</h1>
  <p>Every error of the REST API is an RFC 9457 problem document whose <code>type</code> is the page of its <code>code</code> here;
  GraphQL carries the same codes in <code>errors[].extensions.code</code>. Match on <code>code</code>, never on <code>detail</code>.</p>
  <table>
    <thead><tr><th>Status</th><th>Code</th><th>Meaning</th></tr></thead>
    <tbody>
      ${rows}
    </tbody>
  </table>
</main>`,
  );
}

export function unknownErrorPage(code: string): string {
  return htmlPage(
    'Unknown error code · Store catalog API',
    `${nav}
<main>
  <h1>No such error code</h1>
  <p>The service has no error code <code>${escapeHtml(code.slice(0, 100))}</code>. <a href="${ERROR_PAGES_PATH}">The list of error codes</a> has every code it uses.</p>
</main>`,
  );
}
