// Figures a run in the scratch Python drew with matplotlib (livelab.figures): each a PNG with
// the text alternative Python wrote from the figure's titles, labels and what it holds, put
// under the run's output. Built with the DOM, never as HTML: the worker that sends them runs
// student code.

import { t } from "../i18n.js";

/** Show a run's figures in holder (none: it hides). */
export function showFigures(holder, figures) {
  const list = Array.isArray(figures) ? figures : [];
  holder.replaceChildren(
    ...list.map(({ png, alt }) => {
      const image = document.createElement("img");
      image.className = "livelab-figure";
      image.alt = String(alt ?? t("figures.default_alt"));
      image.src = `data:image/png;base64,${String(png ?? "")}`;
      return image;
    }),
  );
  holder.hidden = list.length === 0;
}

/** What a reply says beside its figures: figures left out, a package that did not load. */
export const figureNotes = (reply) => [reply.figures_note, reply.packages_problem].filter(Boolean);

/** The status while a course's extra packages load before a run (worker/packages.js). */
export const loadingText = (names) =>
  t("figures.loading", { packages: names.reduce((first, second) => t("widget.and", { first, second })) });
