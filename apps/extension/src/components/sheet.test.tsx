import { fireEvent, render, screen } from "@testing-library/preact";
import { useRef, useState } from "preact/hooks";
import { describe, expect, it } from "vitest";
import { Sheet } from "./sheet.tsx";

/** A button that opens a sheet holding two buttons of its own (besides its close button). */
function Opener() {
  const [open, setOpen] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  return (
    <>
      <button
        type="button"
        ref={opener}
        onClick={() => {
          setOpen(true);
        }}
      >
        Open
      </button>
      <button type="button">Behind</button>
      {open ? (
        <Sheet
          title="Sheet"
          returnTo={opener}
          onClose={() => {
            setOpen(false);
          }}
        >
          <button type="button">First inside</button>
          <button type="button">Last inside</button>
        </Sheet>
      ) : null}
    </>
  );
}

const focused = () => document.activeElement?.textContent.trim();

function openSheet() {
  render(<Opener />);
  fireEvent.click(screen.getByRole("button", { name: "Open" }));
  return screen.getByRole("dialog", { name: "Sheet" });
}

describe("a sheet", () => {
  it("sends Tab from its last control back to its first (its close button)", () => {
    const dialog = openSheet();
    const last = screen.getByRole("button", { name: "Last inside" });
    last.focus();
    const tab = fireEvent.keyDown(last, { key: "Tab" });
    expect(tab).toBe(false);
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Close" }));
    expect(dialog.contains(document.activeElement)).toBe(true);
  });

  it("sends Shift+Tab from its first control to its last", () => {
    openSheet();
    const close = screen.getByRole("button", { name: "Close" });
    close.focus();
    const tab = fireEvent.keyDown(close, { key: "Tab", shiftKey: true });
    expect(tab).toBe(false);
    expect(focused()).toBe("Last inside");
  });

  it("leaves Tab between its own controls to the browser", () => {
    openSheet();
    const first = screen.getByRole("button", { name: "First inside" });
    first.focus();
    expect(fireEvent.keyDown(first, { key: "Tab" })).toBe(true);
  });

  it("closes on Escape and gives the focus back to what opened it", async () => {
    const dialog = openSheet();
    fireEvent(dialog, new Event("cancel", { cancelable: true }));
    expect(screen.queryByRole("dialog")).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(focused()).toBe("Open");
  });
});
