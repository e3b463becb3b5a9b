import { useState } from 'react';
import { SCREENSHOT_SIZE, SLIDES, wrapIndex } from './slides.ts';
import { Dots } from './Dots.tsx';
import { ScreenshotViewer } from './ScreenshotViewer.tsx';

/** Product screenshots; a click opens the full-screen viewer on the same slide. */
export function ScreenshotCarousel() {
  const [index, setIndex] = useState(0);
  const [viewing, setViewing] = useState(false);
  const slide = SLIDES[index]!;
  const move = (step: number) => setIndex((current) => wrapIndex(current + step, SLIDES.length));

  return (
    <div className="carousel" aria-roledescription="carousel" aria-label="Product screenshots">
      <div className="carousel__stage">
        <button
          type="button"
          className="carousel__arrow carousel__arrow--prev"
          aria-label="Previous screenshot"
          onClick={() => move(-1)}
        >
          ‹
        </button>
        <button
          type="button"
          className="carousel__frame"
          onClick={() => setViewing(true)}
          aria-label={`Open ${slide.title} full screen`}
        >
          <img
            src={slide.src}
            alt={slide.title}
            width={SCREENSHOT_SIZE.width}
            height={SCREENSHOT_SIZE.height}
          />
        </button>
        <button
          type="button"
          className="carousel__arrow carousel__arrow--next"
          aria-label="Next screenshot"
          onClick={() => move(1)}
        >
          ›
        </button>
      </div>
      <div className="carousel__caption" aria-live="polite">
        <h3>{slide.title}</h3>
        <p>{slide.description}</p>
      </div>
      <Dots index={index} onSelect={setIndex} />
      {viewing ? (
        <ScreenshotViewer
          index={index}
          onIndexChange={setIndex}
          onClose={() => setViewing(false)}
        />
      ) : null}
    </div>
  );
}
