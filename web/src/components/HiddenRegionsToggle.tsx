/** "Show 10 hidden regions" / "Hide …": the regions the region config or emptiness hides. */
export function HiddenRegionsToggle({
  count,
  showing,
  onToggle,
}: {
  count: number;
  showing: boolean;
  onToggle(): void;
}) {
  if (count === 0) return null;
  const noun = count === 1 ? 'region' : 'regions';
  return (
    <button type="button" className="button--text" aria-pressed={showing} onClick={onToggle}>
      {showing ? `Hide ${count} empty or hidden ${noun}` : `Show ${count} empty or hidden ${noun}`}
    </button>
  );
}
