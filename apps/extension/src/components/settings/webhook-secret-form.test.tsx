import { fireEvent, render, screen } from "@testing-library/preact";
import { describe, expect, it } from "vitest";
import { signedIn, startTestBackground } from "../../testing/background.ts";
import { fakeBackend, json, snapshot } from "../../testing/fixtures.ts";
import { useLocale } from "../../testing/setup.ts";
import { WebhookSecretForm } from "./webhook-secret-form.tsx";

/** The backend's answer to a namespace it cannot take (a route parameter refused by its schema). */
const malformed = () =>
  json(
    {
      error: "invalid_request",
      message: "Invalid param: ns: must be 1–100 letters, digits, `_`, `.` or `-`",
      fields: [{ field: "ns", message: "must be 1–100 letters, digits, `_`, `.` or `-`" }],
    },
    400,
  );
const notSet = () =>
  json({ namespace: "demo", configured: false, updated_at: null, previous_valid_until: null });

/** A backend that knows the account `demo` and refuses the namespace `my org`. */
const namespaces = () =>
  fakeBackend({
    "GET /api/namespaces/demo/webhook-secret": notSet,
    "GET /api/namespaces/my%20org/webhook-secret": malformed,
  });

async function enterAccount(name: string) {
  const input = await screen.findByLabelText<HTMLInputElement>("Account");
  fireEvent.change(input, { target: { value: name } });
}

describe("webhook secret form: the account it is for", () => {
  it("says the account's name is malformed, not that fields are highlighted", async () => {
    await signedIn();
    startTestBackground(namespaces());
    render(<WebhookSecretForm snapshot={snapshot()} />);
    await enterAccount("my org");
    expect((await screen.findByRole("alert")).textContent).toBe(
      "That is not an account's namespace: it is its short name, made of letters, digits and _ . -",
    );
  });

  it("drops the last account's problem once another account is entered", async () => {
    await signedIn();
    startTestBackground(namespaces());
    render(<WebhookSecretForm snapshot={snapshot()} />);
    await enterAccount("my org");
    await screen.findByRole("alert");
    await enterAccount("demo");
    await screen.findByText(/No secret set/);
    expect(screen.queryByRole("alert")).toBeNull();
  });
});

describe("webhook secret form: a secret the backend refuses", () => {
  const refusing = () =>
    fakeBackend({
      "GET /api/namespaces/demo/webhook-secret": notSet,
      "PUT /api/namespaces/demo/webhook-secret": () =>
        json(
          {
            error: "invalid_secret",
            message:
              "The webhook secret starts or ends with whitespace (a space, tab or line break)",
          },
          400,
        ),
    });

  async function save(label: string, secret: string) {
    const input = await screen.findByLabelText<HTMLInputElement>(label);
    fireEvent.input(input, { target: { value: secret } });
    const form = input.closest("form");
    if (!form) throw new Error("the secret is not in a form");
    fireEvent.submit(form);
  }

  it("says in the person's language what to do, not 'something went wrong'", async () => {
    await useLocale("zh_CN");
    await signedIn();
    startTestBackground(refusing());
    render(<WebhookSecretForm snapshot={snapshot()} />);
    await save("新密钥", "whsec-1234 ");
    expect((await screen.findByRole("alert")).textContent).toBe(
      "后端拒绝了这个密钥：请从平台控制台只复制密钥本身，前后不要带空格或换行。",
    );
  });

  it("says it in English too", async () => {
    await signedIn();
    startTestBackground(refusing());
    render(<WebhookSecretForm snapshot={snapshot()} />);
    await save("New secret", "whsec-1234 ");
    expect((await screen.findByRole("alert")).textContent).toBe(
      "The backend refused this secret: copy only the secret itself from the platform console, without spaces or line breaks around it.",
    );
  });
});
