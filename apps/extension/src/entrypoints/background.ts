import { defineBackground } from "wxt/utils/define-background";
import { startBackground } from "../lib/background/index.ts";

export default defineBackground(() => {
  startBackground();
});
