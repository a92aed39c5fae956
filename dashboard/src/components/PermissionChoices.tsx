import { PERMISSIONS } from '../lib/permissions';

/**
 * The staff permissions as checkboxes, each with what it allows under it (the hint's id is `helpPrefix` + the
 * permission, so other checkboxes of the page can point to the same words).
 */
export function PermissionChoices({
  legend,
  chosen,
  onChange,
  helpPrefix,
  error,
}: {
  legend: string;
  chosen: string[];
  onChange: (next: string[]) => void;
  helpPrefix: string;
  error?: string;
}) {
  return (
    <fieldset className="field checkbox-group">
      <legend>{legend}</legend>
      <div className="checkbox-list checkbox-list-column">
        {PERMISSIONS.map((p) => (
          <div key={p.value}>
            <label className="checkbox">
              <input
                type="checkbox"
                aria-describedby={`${helpPrefix}${p.value}`}
                checked={chosen.includes(p.value)}
                onChange={() => onChange(chosen.includes(p.value) ? chosen.filter((x) => x !== p.value) : [...chosen, p.value])}
              />
              {p.label}
            </label>
            <p className="hint" id={`${helpPrefix}${p.value}`}>
              {p.help}
            </p>
          </div>
        ))}
      </div>
      {error ? <p className="field-error">{error}</p> : null}
    </fieldset>
  );
}
