/** A person's picture, or their initials when the platform has none (`avatar_url` may be empty). */
export function Avatar(props: { url: string; name: string; small?: boolean }) {
  const size = props.small ? 24 : 36;
  const className = `avatar${props.small ? " small" : ""}`;
  if (props.url) return <img class={className} src={props.url} alt="" width={size} height={size} />;
  const initials = props.name
    .split(/\s+/)
    .map((word) => Array.from(word)[0] ?? "")
    .join("")
    .slice(0, 2)
    .toUpperCase();
  return (
    <span class={`${className} initials`} aria-hidden="true">
      {initials}
    </span>
  );
}
