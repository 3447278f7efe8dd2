// The site header's height as --header-h on <html>: a phone's table fills the
// rest of the screen with the felt, the bar and the hand (static/css/table.css),
// and the header wraps to one or two rows with the language and the account.
(() => {
  const header = document.querySelector(".site-header");
  if (!header) return;
  const set = () => document.documentElement.style.setProperty("--header-h", `${header.offsetHeight}px`);
  set();
  new ResizeObserver(set).observe(header);
})();
