import { App } from "../../components/app.tsx";

export function PopupApp() {
  return <App surface="popup" />;
}
