import { sanitizeName, validateSearchQuery } from '@memtrail/contracts';

/**
 * Search input checked by the spec's rule (letters, digits, spaces, hyphens, underscores,
 * periods; up to 200); the message shows under the input while it is invalid.
 */
export function SearchBox({
  value,
  onChange,
  placeholder,
  label,
}: {
  value: string;
  onChange(raw: string): void;
  placeholder: string;
  label: string;
}) {
  const error = value ? validateSearchQuery(value) : null;
  return (
    <label className={`search${error ? ' field--invalid' : ''}`}>
      <span className="visually-hidden">{label}</span>
      <input
        type="search"
        value={value}
        placeholder={placeholder}
        maxLength={200}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={Boolean(error)}
      />
      {error ? <span className="field__error">{error}</span> : null}
    </label>
  );
}

/** The query to filter by: cleaned, lower-cased, empty when invalid. */
export function usableQuery(value: string): string {
  if (!value || validateSearchQuery(value)) return '';
  return sanitizeName(value).trim().toLowerCase();
}
