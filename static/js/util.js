// Shared helpers for the page modules.

// `strings` maps each English source string to its translation (rendered into
// the page by the template); placeholders are Python-style: %(name)s.
export function makeT(strings) {
  return (key, params) => fill(strings[key] ?? key, params);
}

function fill(text, params) {
  if (!params) return text;
  return text.replace(/%\((\w+)\)s/g, (_, name) => String(params[name] ?? ""));
}

// A count in words ("1 peça", "7 peças"): the form comes from Django's
// JavaScript catalog (the /jsi18n/ script every page loads before its modules,
// `makemessages -d djangojs` finds these calls), which knows each language's
// plural rule. `n` fills %(n)s; `params` any other placeholder.
export function ngettext(singular, plural, n, params = {}) {
  const catalog = globalThis.django;
  const text = catalog ? catalog.ngettext(singular, plural, n) : n === 1 ? singular : plural;
  return fill(text, { n, ...params });
}

export function ready(fn) {
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", fn);
  else fn();
}
