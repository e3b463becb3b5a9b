import { SLIDES } from './slides.ts';

/** One dot per slide; the current one is marked. */
export function Dots({ index, onSelect }: { index: number; onSelect(index: number): void }) {
  return (
    <div className="dots" role="group" aria-label="Choose screenshot">
      {SLIDES.map((slide, i) => (
        <button
          key={slide.src}
          type="button"
          className={`dots__dot${i === index ? ' dots__dot--active' : ''}`}
          aria-label={slide.title}
          aria-current={i === index ? 'true' : undefined}
          onClick={() => onSelect(i)}
        />
      ))}
    </div>
  );
}
