import { render } from "@testing-library/preact";
import { describe, expect, it } from "vitest";
import { Avatar } from "./avatar.tsx";

describe("avatar", () => {
  it("shows the platform's picture when there is one", () => {
    const { container } = render(<Avatar url="http://127.0.0.1:4010/a.png" name="Demo Listener" />);
    expect(container.querySelector("img")?.getAttribute("src")).toBe("http://127.0.0.1:4010/a.png");
  });

  it("shows initials when the platform has no picture", () => {
    const { container } = render(<Avatar url="" name="Ada Lovelace" />);
    expect(container.textContent).toBe("AL");
  });
});
