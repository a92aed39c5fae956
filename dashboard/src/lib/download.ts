import { dashboardFetch, type ApiError } from '../api/client';

/**
 * Files the browser saves: a merchant REST download fetched with the dashboard's session (the service reads the
 * session cookie on its export routes only together with the X-CSRF-Token header, which dashboardFetch adds), and
 * files the page makes itself (an error report).
 */

/** Hands a file to the browser's downloads. */
export function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started from the URL; it is no longer needed once the click has been handled.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** The file name of a Content-Disposition header (`attachment; filename="x.csv"`), or the fallback. */
function fileNameOf(disposition: string | null, fallback: string): string {
  const star = /filename\*=UTF-8''([^;]+)/i.exec(disposition ?? '');
  if (star) return decodeURIComponent(star[1]!);
  const plain = /filename="?([^";]+)"?/i.exec(disposition ?? '');
  return plain ? plain[1]! : fallback;
}

/** GETs a service path as a file and saves it; a refused request throws an ApiError in the service's words. */
export async function downloadFromService(path: string, fallbackName: string): Promise<string> {
  let response: Response;
  try {
    response = await dashboardFetch(path, { method: 'GET', headers: { Accept: 'text/csv, application/x-ndjson, application/problem+json' } });
  } catch {
    throw { code: 'network_error', message: 'The service could not be reached. Check your connection and try again.', fields: {} } satisfies ApiError;
  }
  if (!response.ok) {
    let detail = `The download failed (HTTP ${response.status}).`;
    let code = 'error';
    try {
      const problem = (await response.json()) as { detail?: string; code?: string };
      if (problem.detail) detail = problem.detail;
      if (problem.code) code = problem.code;
    } catch {
      // Not a problem document: the status says enough.
    }
    if (response.status === 401) detail = 'Your session has ended. Please sign in again.';
    throw { code, message: detail, fields: {} } satisfies ApiError;
  }
  const fileName = fileNameOf(response.headers.get('content-disposition'), fallbackName);
  saveFile(await response.blob(), fileName);
  return fileName;
}

/** One CSV cell: quoted when it holds a comma, a quote or a line break; a leading =, +, - or @ is defused for spreadsheets. */
function csvCell(value: string | number): string {
  let text = String(value);
  if (/^[=+\-@]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvFile(header: string[], rows: (string | number)[][]): Blob {
  const lines = [header, ...rows].map((r) => r.map(csvCell).join(','));
  return new Blob([`${lines.join('\r\n')}\r\n`], { type: 'text/csv;charset=utf-8' });
}
