import { useEffect, useRef, useState, type ReactNode } from 'react';
import { focusables } from '../lib/focus.ts';

/**
 * Dialog over a dimmed page; Escape or the backdrop closes it. Focus moves into the dialog,
 * Tab and Shift+Tab stay inside it, and on close focus returns to what opened it (or, when that
 * is gone, to the page's main content), never to the document body.
 */
export function Modal({
  title,
  onClose,
  children,
}: {
  title: string;
  onClose(): void;
  children: ReactNode;
}) {
  const dialog = useRef<HTMLDivElement>(null);
  // What had the focus before the dialog (and its autoFocus field) took it.
  const [opener] = useState(() => document.activeElement as HTMLElement | null);
  const close = useRef(onClose);
  useEffect(() => {
    close.current = onClose;
  });

  useEffect(() => {
    const box = dialog.current!;
    if (!box.contains(document.activeElement)) (focusables(box)[0] ?? box).focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') close.current();
      if (event.key !== 'Tab') return;
      const stops = focusables(box);
      const first = stops[0];
      const last = stops.at(-1);
      if (!first || !last) return event.preventDefault();
      const inside = box.contains(document.activeElement);
      if (event.shiftKey && (document.activeElement === first || !inside)) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('keydown', onKey);
      // After the dialog is gone: the opener if it is still on the page, else the content.
      setTimeout(() => {
        if (document.activeElement && document.activeElement !== document.body) return;
        const back = opener?.isConnected ? opener : document.getElementById('main');
        back?.focus();
      });
    };
  }, [opener]);

  return (
    <div
      className="modal-backdrop"
      onMouseDown={(event) => event.target === event.currentTarget && onClose()}
    >
      <div
        ref={dialog}
        className="modal"
        role="dialog"
        aria-modal="true"
        aria-label={title}
        tabIndex={-1}
      >
        <h2>{title}</h2>
        {children}
      </div>
    </div>
  );
}
