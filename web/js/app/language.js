// The page's language: picked at start (address, stored choice, browser), switched from the picker and remembered;
// each switch translates the page and tells the app ("language"), so every part redraws its own texts.

import { chooseLanguage, currentLanguage, loadLanguage, requestedLanguage, translatePage } from "../base/i18n.js";

/** settingsStore: the player's settings (base/settings-store.js); picker: the menu's language <select>. */
export function createLanguage({ events, settingsStore, picker }) {
  /** Loads the language to show and translates the page; the page's built-in English stays if that fails. */
  async function start() {
    try {
      await loadLanguage(chooseLanguage(settingsStore.settings().language));
      translatePage();
    } catch (error) {
      console.warn("catalog not loaded, keeping the page's built-in English", error);
    }
    picker.value = currentLanguage();
    picker.addEventListener("change", () => switchTo(picker.value));
  }

  async function switchTo(code) {
    settingsStore.saveSettings({ language: code });
    if (requestedLanguage()) {
      // The picker's choice outlives this visit: ?lang= would otherwise win again on reload.
      const url = new URL(location.href);
      url.searchParams.delete("lang");
      history.replaceState(history.state, "", url);
    }
    // The language already shown: nothing to load or redraw (a redraw would clear the message on the table).
    if (code === currentLanguage()) return;
    try {
      await loadLanguage(code);
    } catch (error) {
      console.warn("catalog not loaded", error);
      picker.value = currentLanguage();
      return;
    }
    translatePage();
    picker.value = currentLanguage();
    events.emit("language", { language: currentLanguage() });
  }

  return { start };
}
