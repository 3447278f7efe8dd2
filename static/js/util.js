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
