// Asks the player one question before something that cannot be undone (leaving or giving up a running game), in a
// modal dialog whose safe answer has the focus; Escape and a click outside keep things as they are.

import { onBackdropClick } from "./dialog.js";

/**
 * dialog: the #confirm-dialog element (a title, a text and two buttons, [data-answer=stay] and
 * [data-answer=leave]). onToggle(): told when the dialog opens or closes (the game stays paused meanwhile).
 * Returns {ask({title, text, stay, leave}) -> Promise<boolean>, isOpen()}: true when the player chose `leave`.
 */
export function createConfirm({ dialog, onToggle = () => {} }) {
  const title = dialog.querySelector("[data-part=title]");
  const text = dialog.querySelector("[data-part=text]");
  const stayButton = dialog.querySelector("[data-answer=stay]");
  const leaveButton = dialog.querySelector("[data-answer=leave]");
  let answer = null; // the pending question's resolve
  let returnTo = null;

  function close(chosen) {
    const resolve = answer;
    answer = null;
    if (dialog.open) dialog.close();
    resolve?.(chosen);
  }

  stayButton.addEventListener("click", () => close(false));
  leaveButton.addEventListener("click", () => close(true));
  dialog.addEventListener("close", () => {
    close(false); // Escape (the dialog's own cancel) keeps things as they are
    const target = returnTo;
    returnTo = null;
    if (target?.isConnected) target.focus();
    onToggle();
  });
  onBackdropClick(dialog, () => close(false));

  function ask(question) {
    close(false); // a question still open is answered "stay" first
    title.textContent = question.title;
    text.textContent = question.text;
    stayButton.textContent = question.stay;
    leaveButton.textContent = question.leave;
    returnTo = document.activeElement;
    dialog.showModal();
    stayButton.focus();
    onToggle();
    return new Promise((resolve) => {
      answer = resolve;
    });
  }

  return { ask, isOpen: () => dialog.open };
}
