// The computer players' seats, drawn from the one copy of a seat's parts in index.html (#seat-parts).

/** Fills every empty seat of `doc` with a copy of the seat parts, its name keyed for the page's words
 * (base/i18n.js translates it with the rest). Call before the words are first applied. */
export function fillSeats(doc = document) {
  const parts = doc.getElementById("seat-parts");
  for (const seat of doc.querySelectorAll(".seat[data-seat]")) {
    if (seat.childElementCount > 0) continue;
    seat.append(parts.content.cloneNode(true));
    const name = seat.querySelector(".seat-name");
    name.dataset.i18n = `seat.${seat.dataset.seat}`;
    name.textContent = seat.getAttribute("aria-label");
  }
}
