// Every page: behaviour that must not live in the HTML (the Content-Security-
// Policy allows no inline script or handler).

// <select data-autosubmit> (the language menu) sends its form on change.
for (const select of document.querySelectorAll("select[data-autosubmit]")) {
  select.addEventListener("change", () => select.form.submit());
}
