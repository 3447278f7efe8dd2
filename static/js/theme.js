// The dark theme's switch (docs/table-feel.md): a classic script in <head>, so
// the choice is set before the first paint. No choice: the system's (site.css).
(() => {
  const KEY = "domino.theme";
  const root = document.documentElement;
  const system = matchMedia("(prefers-color-scheme: dark)");
  const stored = () => {
    try {
      return localStorage.getItem(KEY);
    } catch {
      return null;
    }
  };
  const dark = () => (root.dataset.theme || (system.matches ? "dark" : "light")) === "dark";
  function apply(theme = stored()) {
    if (theme === "dark" || theme === "light") root.dataset.theme = theme;
    else delete root.dataset.theme;
    for (const meta of document.querySelectorAll("meta[name=theme-color]")) {
      meta.content = theme ? (theme === "dark" ? "#06140d" : "#0a3622") : meta.dataset.color;
    }
    for (const button of document.querySelectorAll("[data-theme-toggle]")) button.setAttribute("aria-pressed", String(dark()));
  }
  apply();
  system.addEventListener("change", () => apply());
  addEventListener("storage", (event) => event.key === KEY && apply()); // another tab chose
  document.addEventListener("DOMContentLoaded", () => apply());
  document.addEventListener("click", (event) => {
    if (!event.target.closest?.("[data-theme-toggle]")) return;
    const next = dark() ? "light" : "dark";
    try {
      if (next === (system.matches ? "dark" : "light")) localStorage.removeItem(KEY);
      else localStorage.setItem(KEY, next);
    } catch {
      /* private mode: this page only */
    }
    apply(next); // also when storage is refused
  });
})();
