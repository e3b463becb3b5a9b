import { SERIES_SCALES, type SeriesScale } from '../../lib/seriesScale.ts';

/**
 * A segmented control for the y-axis scale of a chart. Native radios, so Tab reaches the group
 * and the arrow keys move the choice, and each option is named by its label.
 */
export function ScaleSwitch({
  value,
  onChange,
}: {
  value: SeriesScale;
  onChange(scale: SeriesScale): void;
}) {
  return (
    <div className="segmented" role="radiogroup" aria-label="Chart scale">
      <span className="segmented__title" aria-hidden="true">
        Scale
      </span>
      {SERIES_SCALES.map((option) => (
        <label key={option.value} className="segmented__option" title={option.hint}>
          <input
            type="radio"
            name="chart-scale"
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
