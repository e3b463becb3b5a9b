import { useEffect, useRef } from 'react';
import { Dots } from './Dots.tsx';
import { SLIDES, wrapIndex } from './slides.ts';

/** Full-screen screenshot viewer: Escape closes, arrow keys move (wrapping), dots jump. */
export function ScreenshotViewer({
  index,
  onIndexChange,
  onClose,
}: {
  index: number;
  onIndexChange(index: number): void;
  onClose(): void;
}) {
  const slide = SLIDES[index]!;
  const closeButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
      else if (event.key === 'ArrowRight') onIndexChange(wrapIndex(index + 1, SLIDES.length));
      else if (event.key === 'ArrowLeft') onIndexChange(wrapIndex(index - 1, SLIDES.length));
      else return;
      event.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [index, onIndexChange, onClose]);

  useEffect(() => {
    closeButton.current?.focus();
    // The page behind must not scroll while the viewer covers it.
    const previous = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    return () => {
      document.body.style.overflow = previous;
    };
  }, []);

  return (
    <div
      className="viewer"
      role="dialog"
      aria-modal="true"
      aria-label={`${slide.title} screenshot`}
      onClick={(event) => event.target === event.currentTarget && onClose()}
    >
      <button
        ref={closeButton}
        type="button"
        className="viewer__close"
        aria-label="Close"
        onClick={onClose}
      >
        ×
      </button>
      <button
        type="button"
        className="viewer__arrow viewer__arrow--prev"
        aria-label="Previous screenshot"
        onClick={() => onIndexChange(wrapIndex(index - 1, SLIDES.length))}
      >
        ‹
      </button>
      <figure className="viewer__figure">
        <img src={slide.src} alt={slide.title} />
        <figcaption>
          <strong>{slide.title}</strong>
          <span>{slide.description}</span>
          <span className="viewer__count">
            {index + 1} / {SLIDES.length}
          </span>
        </figcaption>
      </figure>
      <button
        type="button"
        className="viewer__arrow viewer__arrow--next"
        aria-label="Next screenshot"
        onClick={() => onIndexChange(wrapIndex(index + 1, SLIDES.length))}
      >
        ›
      </button>
      <div className="viewer__dots">
        <Dots index={index} onSelect={onIndexChange} />
      </div>
    </div>
  );
}
