// Every page: behaviour that must not live in the HTML (the Content-Security-
// Policy allows no inline script or handler).

// [data-autosubmit] (the language menu, the ranking's filters) sends its form on change.
for (const input of document.querySelectorAll("[data-autosubmit]")) {
  input.addEventListener("change", () => input.form.submit());
}
