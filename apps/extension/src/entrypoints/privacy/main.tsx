import { mount } from "../../lib/views/mount.tsx";
import { PrivacyPage } from "./app.tsx";

mount(<PrivacyPage />, { items: () => import("../../lib/shared/storage.ts") });
