/**
 * The player's symbols, drawn (the fonts of some systems have no ⏮ or ⏭): they take the text
 * colour, and are hidden from screen readers, whose name for the button says what it does.
 */
const PATHS = {
  play: "M4 2.5v11l9.5-5.5z",
  pause: "M3.5 2.5h3v11h-3zM9.5 2.5h3v11h-3z",
  previous: "M3 2.5h2v11H3zM14 2.5v11L5.5 8z",
  next: "M11 2.5h2v11h-2zM2 2.5v11L10.5 8z",
} as const;

export function Icon(props: { name: keyof typeof PATHS }) {
  return (
    <svg
      class="glyph"
      viewBox="0 0 16 16"
      width="14"
      height="14"
      aria-hidden="true"
      focusable="false"
    >
      <path d={PATHS[props.name]} fill="currentColor" />
    </svg>
  );
}
