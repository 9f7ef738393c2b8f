import { mount } from "../../lib/mount.tsx";
import { OptionsApp } from "./app.tsx";

mount(<OptionsApp />);
