// Shared helpers for the page modules.

// `strings` maps each English source string to its translation (rendered into
// the page by the template); placeholders are Python-style: %(name)s.
export function makeT(strings) {
  return (key, params) => {
    let text = strings[key] ?? key;
    if (params) text = text.replace(/%\((\w+)\)s/g, (_, name) => String(params[name] ?? ""));
    return text;
  };
}

export function ready(fn) {
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", fn);
  else fn();
}

// The Content-Security-Policy refuses style="" attributes in markup: markup
// built as a string carries computed styles in data-css instead, and this moves
// them into element.style (which the policy allows) once it is in the page.
export function applyCss(el) {
  for (const node of el.querySelectorAll("[data-css]")) {
    node.style.cssText = node.dataset.css;
    node.removeAttribute("data-css");
  }
}
