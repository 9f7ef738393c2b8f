import { mount } from "../../lib/views/mount.tsx";
import * as items from "../../lib/shared/storage.ts";
import { OptionsApp } from "./app.tsx";

// The options page loads WXT's storage library anyway (its forms write through it).
mount(<OptionsApp />, { items: () => Promise.resolve(items) });
