import { i18n, uiLanguage } from "../../lib/shared/i18n.ts";
import { useEffect, useState } from "preact/hooks";
import { send } from "../../lib/shared/messages.ts";
import { deviceName, errorText } from "../../lib/views/texts.ts";
import type { DeviceSession } from "../../lib/shared/types.ts";
import { ConfirmButton } from "../confirm-button.tsx";

const date = (iso: string | undefined) => (iso ? new Date(iso).toLocaleString(uiLanguage()) : "");

/**
 * Signed-in devices (backend sessions), each revocable once confirmed; revoking this one signs
 * out here.
 */
export function Devices() {
  const [devices, setDevices] = useState<DeviceSession[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    send("sessions/list")
      .then(setDevices)
      .catch((error: unknown) => {
        setProblem(errorText(error));
      });
  }, []);
  const revoke = (id: string) => {
    send("sessions/revoke", { id })
      .then(setDevices)
      .catch((error: unknown) => {
        setProblem(errorText(error));
      });
  };
  return (
    <section class="card stack" aria-labelledby="devices-title">
      <h2 id="devices-title">{i18n.t("account.devices")}</h2>
      {devices ? (
        <ul class="devices">
          {devices.map((device) => (
            <li key={device.id} data-device-id={device.id}>
              <span>
                <strong data-testid="device-name">{deviceName(device.user_agent)}</strong>
                {device.current ? (
                  <span class="pill plain">{i18n.t("account.thisDevice")}</span>
                ) : null}
                <br />
                <span class="small muted">
                  {i18n.t("account.deviceSince", { date: date(device.created_at) })}
                </span>
              </span>
              {/* Asked first, as Sign out is: revoking this device signs out here, and another
                  device can only sign in again from there. */}
              <ConfirmButton
                danger
                label={i18n.t("account.revoke")}
                ariaLabel={i18n.t("account.revokeDevice", {
                  device: deviceName(device.user_agent),
                })}
                question={
                  device.current
                    ? i18n.t("account.revokeThisQuestion")
                    : i18n.t("account.revokeQuestion", { device: deviceName(device.user_agent) })
                }
                confirmLabel={i18n.t("account.revokeConfirm")}
                keepLabel={i18n.t("account.revokeKeep")}
                onConfirm={() => {
                  revoke(device.id);
                }}
              />
            </li>
          ))}
        </ul>
      ) : problem ? null : (
        <p class="muted small" aria-busy="true">
          …
        </p>
      )}
      {problem ? (
        <p class="small" role="alert">
          {problem}
        </p>
      ) : null}
    </section>
  );
}
