/** The mark: three memory regions filling up, as bars of decreasing use. */
export function LogoMark({ size = 22 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" className="logo-mark">
      <rect x="1" y="1" width="22" height="22" rx="5" className="logo-mark__bg" />
      <rect x="5" y="6" width="14" height="3" rx="1.5" className="logo-mark__bar" />
      <rect x="5" y="10.5" width="10" height="3" rx="1.5" className="logo-mark__bar" />
      <rect
        x="5"
        y="15"
        width="6"
        height="3"
        rx="1.5"
        className="logo-mark__bar logo-mark__bar--hot"
      />
    </svg>
  );
}
