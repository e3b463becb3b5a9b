import type { ChoiceOption } from '../../lib/seriesScale.ts';

/**
 * A segmented control for a chart setting. Native radios, so Tab reaches the group and the
 * arrow keys move the choice, and each option is named by its label.
 */
export function ChoiceSwitch<T extends string>({
  title,
  name,
  options,
  value,
  onChange,
}: {
  title: string;
  /** The radio group's form name, unique on the page. */
  name: string;
  options: readonly ChoiceOption<T>[];
  value: T;
  onChange(value: T): void;
}) {
  return (
    <div className="segmented" role="radiogroup" aria-label={`Chart ${title.toLowerCase()}`}>
      <span className="segmented__title" aria-hidden="true">
        {title}
      </span>
      {options.map((option) => (
        <label key={option.value} className="segmented__option" title={option.hint}>
          <input
            type="radio"
            name={name}
            value={option.value}
            checked={value === option.value}
            onChange={() => onChange(option.value)}
          />
          <span>{option.label}</span>
        </label>
      ))}
    </div>
  );
}
