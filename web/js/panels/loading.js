// The loading panel: the phases this load goes through, its progress bar, and a clear message if it fails.

import { t } from "../base/i18n.js";
import { isLoadError } from "../engine/engine-load.js";
import { PHASES } from "../engine/progress.js";

export function createLoadingPanel() {
  const $ = (id) => document.getElementById(id);
  const phases = $("phases");

  /** Lists only the phases this load goes through (a memory snapshot needs no package installer). */
  function showPath(_path, pathPhases) {
    for (const item of phases.children) item.hidden = !pathPhases.includes(item.dataset.phase);
  }

  function showProgress(phase, phaseFraction, total) {
    const percent = Math.round(total * 100);
    $("progress-fill").style.inlineSize = `${percent}%`;
    $("progress").setAttribute("aria-valuenow", String(percent));
    const index = PHASES.indexOf(phase);
    for (const item of phases.children) {
      const at = PHASES.indexOf(item.dataset.phase);
      item.classList.toggle("done", at < index || (at === index && phaseFraction >= 1));
      item.classList.toggle("active", at === index && phaseFraction < 1);
    }
  }

  /** The failure in words, with a button that reloads the page. */
  function showError(error) {
    console.error(error);
    const box = $("load-error");
    box.textContent = isLoadError(error)
      ? t(error.key, error.params)
      : t("loading.errorGeneric", { message: error?.message ?? String(error) });
    const reload = document.createElement("button");
    reload.type = "button";
    reload.className = "primary";
    reload.textContent = t("loading.reload");
    reload.addEventListener("click", () => location.reload());
    box.append(document.createElement("br"), reload);
    box.hidden = false;
  }

  return { showPath, showProgress, showError };
}
