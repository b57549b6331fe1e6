// What every modal dialog of the page does alike.

/** Calls onOutside() when a click lands on the dialog's backdrop (outside its box), the usual way to dismiss it. */
export function onBackdropClick(dialog, onOutside) {
  dialog.addEventListener("click", (event) => {
    if (event.target !== dialog) return;
    const box = dialog.getBoundingClientRect();
    const inside =
      event.clientX >= box.left &&
      event.clientX <= box.right &&
      event.clientY >= box.top &&
      event.clientY <= box.bottom;
    if (!inside) onOutside();
  });
}
