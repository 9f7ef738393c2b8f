import { describe, expect, it } from "vitest";
import { lyricSections } from "./index.ts";

describe("lyricSections", () => {
  it("lists the section tags in order, repeats included", () => {
    expect(lyricSections("[verse]\nHello\n[chorus]\nLa la\n[verse]\nAgain\n[bridge]\nOh")).toEqual([
      "verse",
      "chorus",
      "verse",
      "bridge",
    ]);
  });

  it("keeps the tag as written and trims it", () => {
    expect(lyricSections("[ Verse 1 ]\nHi\n[Pre-Chorus]")).toEqual(["Verse 1", "Pre-Chorus"]);
  });

  it("finds tags on lines with surrounding spaces and CRLF line ends", () => {
    expect(lyricSections("  [intro]  \r\nla\r\n[outro]\r\n")).toEqual(["intro", "outro"]);
  });

  it("ignores a bracketed word inside a line of lyrics", () => {
    expect(lyricSections("I said [laughs] hello\n[chorus]")).toEqual(["chorus"]);
  });

  it("returns an empty list for lyrics without tags", () => {
    expect(lyricSections("just words\nand more")).toEqual([]);
  });

  it("ignores empty brackets", () => {
    expect(lyricSections("[]\n[verse]")).toEqual(["verse"]);
  });
});
