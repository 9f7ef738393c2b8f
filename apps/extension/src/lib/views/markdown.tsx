import type { ComponentChild } from "preact";

/**
 * The small part of Markdown the privacy page uses, turned into elements (never into HTML
 * strings): `#`/`##`/`###` headings, paragraphs, `-` lists, and inline `code`, **bold** and
 * [links](https://…). Anything else shows as plain text.
 */
export function renderMarkdown(source: string): ComponentChild[] {
  const blocks: ComponentChild[] = [];
  let paragraph: string[] = [];
  let list: string[] = [];
  const flush = () => {
    if (paragraph.length > 0) blocks.push(<p>{inline(paragraph.join(" "))}</p>);
    if (list.length > 0)
      blocks.push(
        <ul>
          {list.map((item) => (
            <li>{inline(item)}</li>
          ))}
        </ul>,
      );
    paragraph = [];
    list = [];
  };
  for (const raw of source.split("\n")) {
    const line = raw.trimEnd();
    const heading = /^(#{1,3}) (.*)$/.exec(line);
    const item = /^- (.*)$/.exec(line);
    if (heading) {
      flush();
      const text = inline(heading[2] ?? "");
      const level = heading[1]?.length ?? 1;
      blocks.push(level === 1 ? <h1>{text}</h1> : level === 2 ? <h2>{text}</h2> : <h3>{text}</h3>);
    } else if (item) {
      if (paragraph.length > 0) flush();
      list.push(item[1] ?? "");
    } else if (line.trim() === "") flush();
    else if (list.length > 0 && /^\s+/.test(raw))
      list.push(`${list.pop() ?? ""} ${line.trim()}`); // a list item's continuation line
    else {
      if (list.length > 0) flush();
      paragraph.push(line.trim());
    }
  }
  flush();
  return blocks;
}

const INLINE = /`([^`]+)`|\*\*([^*]+)\*\*|\[([^\]]+)\]\((https?:\/\/[^)\s]+)\)/g;

function inline(text: string): ComponentChild[] {
  const parts: ComponentChild[] = [];
  let at = 0;
  for (const match of text.matchAll(INLINE)) {
    if (match.index > at) parts.push(text.slice(at, match.index));
    const [, code, bold, label, href] = match;
    if (code !== undefined) parts.push(<code>{code}</code>);
    else if (bold !== undefined) parts.push(<strong>{bold}</strong>);
    else
      parts.push(
        <a href={href} target="_blank" rel="noreferrer">
          {label}
        </a>,
      );
    at = match.index + match[0].length;
  }
  if (at < text.length) parts.push(text.slice(at));
  return parts;
}
