import { streamable } from "../../lib/shared/format.ts";
import { i18n } from "../../lib/shared/i18n.ts";
import type { Task } from "../../lib/shared/types.ts";
import { composeFrom } from "../../lib/views/compose-from-task.ts";
import { errorText } from "../../lib/views/texts.ts";
import type { MenuItem } from "../menu-button.tsx";
import type { SheetKind } from "./track-sheets.tsx";
import type { Download } from "./use-download.ts";

/**
 * The "⋯" menu of a finished track: its downloads and sharing (a track that has audio), then
 * what any finished task offers. The same items in the same order whatever the archive's state:
 * the MP3 waits, greyed, until the track is archived, so nothing moves when it is.
 */
export function menuItems(options: {
  task: Task;
  download: Download;
  onRename: () => void;
  onSheet: (kind: SheetKind) => void;
  onRegenerate: () => void;
  onCompose?: (() => void) | undefined;
  onProblem: (text: string) => void;
}): MenuItem[] {
  const { task, download } = options;
  const audio: MenuItem[] =
    task.status === "success"
      ? [
          {
            id: "download-wav",
            label: i18n.t("download.wav"),
            disabled: download.busy,
            onSelect: () => {
              download.start("original");
            },
          },
          {
            id: "download-mp3",
            label: i18n.t("download.mp3"),
            disabled: download.busy || !streamable(task),
            ...(streamable(task) ? {} : { hint: i18n.t("download.mp3Later") }),
            onSelect: () => {
              download.start("mp3");
            },
          },
          {
            id: "share",
            label: i18n.t("share.menu"),
            onSelect: () => {
              options.onSheet("share");
            },
          },
        ]
      : [];
  return [
    ...audio,
    { id: "rename", label: i18n.t("task.rename"), onSelect: options.onRename },
    {
      id: "details",
      label: i18n.t("details.show"),
      onSelect: () => {
        options.onSheet("details");
      },
    },
    {
      id: "reuse",
      label: i18n.t("details.useSettings"),
      onSelect: () => {
        composeFrom(task.params).then(
          () => options.onCompose?.(),
          (error: unknown) => {
            options.onProblem(errorText(error));
          },
        );
      },
    },
    { id: "regenerate", label: i18n.t("details.regenerate"), onSelect: options.onRegenerate },
    {
      id: "delete",
      label: i18n.t("task.deleteMenu"),
      danger: true,
      onSelect: () => {
        options.onSheet("delete");
      },
    },
  ];
}
