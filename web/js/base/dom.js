// Builds page elements from plain data: text always as textContent (never HTML), test ids and classes by name.

/** A `tag` element with `props` (testid, className, text, or any attribute) and `children` appended. */
export function element(tag, props = {}, children = []) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === "testid") el.dataset.testid = value;
    else if (key === "className") el.className = value;
    else if (key === "text") el.textContent = value;
    else el.setAttribute(key, value);
  }
  el.append(...children);
  return el;
}
