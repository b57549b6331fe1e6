// Fills the how-to-play and about dialogs from the catalog and opens them as modal dialogs (focus in, focus back).

import { t } from "../base/i18n.js";
import { ruleNumbers } from "../base/rule-numbers.js";
import { onBackdropClick } from "./dialog.js";

const range = (prefix, count) => Array.from({ length: count }, (_, i) => `${prefix}.${i + 1}`);

// [tag, key | keys]: "ul" takes a list of keys, one <li> each; "links" a list of [title, address].
const HELP = [
  ["h3", "help.rules.heading"],
  ["p", "help.rules.table"],
  ["p", "help.rules.deal"],
  ["p", "help.rules.flip.1"],
  ["p", "help.rules.flip.2"],
  ["h4", "help.rules.pay.heading"],
  ...range("help.rules.pay", 4).map((key) => ["p", key]),
  ["h4", "help.rules.slap.heading"],
  ["p", "help.rules.slap.1"],
  ["ul", ["help.rules.slap.2", "help.rules.slap.3"]],
  ["p", "help.rules.slap.4"],
  ["p", "help.rules.slap.5"],
  ["p", "help.rules.slap.house"],
  ["h4", "help.rules.wrong.heading"],
  ["p", "help.rules.wrong.1"],
  ["h4", "help.rules.out.heading"],
  ...range("help.rules.out", 3).map((key) => ["p", key]),
  ["h4", "help.rules.win.heading"],
  ["p", "help.rules.win.1"],
  ["p", "help.rules.win.2"],
  ["h3", "help.controls.heading"],
  ["ul", range("help.controls", 4)],
  ["h3", "help.modes.heading"],
  ["p", "help.modes.daily.1"],
  ["ul", range("help.modes.daily", 4).slice(1)],
  ["p", "help.modes.new.1"],
  ["ul", ["help.modes.new.2"]],
  ["h3", "help.scoring.heading"],
  ["ul", ["help.scoring.win", "help.scoring.loss"]],
  ["p", "help.scoring.practice"],
  ["h3", "help.tips.heading"],
  ["ul", range("help.tips", 7)],
  ["h3", "help.origins.heading"],
  ...range("help.origins", 4).map((key) => ["p", key]),
];
// Where the rules and the history in How to play come from: [title, address], named as each source names itself.
export const SOURCES = Object.freeze([
  ["Wikipedia: Egyptian Ratscrew", "https://en.wikipedia.org/wiki/Egyptian_Ratscrew"],
  ["Wikipedia: Beggar-my-neighbour", "https://en.wikipedia.org/wiki/Beggar-my-neighbour"],
  ["pagat.com: card game rules (John McLeod)", "https://www.pagat.com/"],
]);
const ABOUT = [...range("help.about", 5).map((key) => ["p", key]), ["p", "help.about.sources"], ["links", SOURCES]];

/** A list of outside links, each opened in a new tab. */
function linkList(links) {
  const list = document.createElement("ul");
  list.dataset.testid = "sources";
  for (const [title, href] of links) {
    const link = document.createElement("a");
    link.href = href;
    link.textContent = title;
    link.target = "_blank";
    link.rel = "noopener noreferrer";
    const item = document.createElement("li");
    item.append(link);
    list.append(item);
  }
  return list;
}

/** The blocks' texts, their numbers (the scoring's) from the engine and formatted for the language by t(). */
function fill(body, blocks, numbers) {
  const element = (tag, key) => {
    const el = document.createElement(tag);
    el.textContent = t(key, numbers);
    return el;
  };
  body.replaceChildren(
    ...blocks.map(([tag, keys]) => {
      if (tag === "links") return linkList(keys);
      if (tag !== "ul") return element(tag, keys);
      const list = document.createElement("ul");
      list.append(...keys.map((key) => element("li", key)));
      return list;
    }),
  );
}

/** Gives each document dialog its close buttons and body (id "<name>-body" for "<name>-dialog") from the one
 * copy in index.html (#doc-parts). Call before the words are first applied. */
export function fillDocDialogs(dialogs) {
  const parts = document.getElementById("doc-parts").content;
  for (const dialog of dialogs) {
    const copy = parts.cloneNode(true);
    dialog.querySelector(".doc-head").append(copy.querySelector(".icon-button"));
    copy.querySelector(".doc-body").id = dialog.id.replace(/-dialog$/, "-body");
    dialog.append(copy);
  }
}

/**
 * The how-to-play and about dialogs; each is filled when it opens, and again in a new language while open.
 * onToggle(): told when one opens or closes (a game stays paused while one is open).
 */
export function createHelp({ helpDialog, aboutDialog, onToggle = () => {} }) {
  const contents = new Map([
    [helpDialog, HELP],
    [aboutDialog, ABOUT],
  ]);
  let returnTo = null;

  function render(dialog) {
    fill(dialog.querySelector(".doc-body"), contents.get(dialog), dialog === helpDialog ? ruleNumbers() : {});
  }

  /** Again in the page's current language, the dialog that is open (if any). */
  function relabel() {
    for (const dialog of contents.keys()) if (dialog.open) render(dialog);
  }

  function open(dialog, opener) {
    if (dialog.open) return;
    render(dialog);
    returnTo = opener ?? document.activeElement;
    dialog.showModal();
    dialog.scrollTop = 0;
    dialog.querySelector("[data-close]").focus();
    onToggle();
  }

  for (const dialog of [helpDialog, aboutDialog]) {
    for (const button of dialog.querySelectorAll("[data-close]"))
      button.addEventListener("click", () => dialog.close());
    dialog.addEventListener("close", () => {
      const target = returnTo;
      returnTo = null;
      if (target?.isConnected) target.focus();
      onToggle();
    });
    onBackdropClick(dialog, () => dialog.close());
  }

  return {
    relabel,
    openHelp: (opener) => open(helpDialog, opener),
    openAbout: (opener) => open(aboutDialog, opener),
    isOpen: () => helpDialog.open || aboutDialog.open,
  };
}
