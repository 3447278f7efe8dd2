// The page templating library (lit-html, vendored: vendor/lit-html/VERSION.md)
// and the one directive of our own. Templates escape every value they insert.

import { html, noChange, nothing, render, svg } from "./vendor/lit-html/lit-html.js";
import { Directive, directive } from "./vendor/lit-html/directive.js";
import { keyed } from "./vendor/lit-html/directives/keyed.js";
import { repeat } from "./vendor/lit-html/directives/repeat.js";
import { unsafeHTML } from "./vendor/lit-html/directives/unsafe-html.js";
import { unsafeSVG } from "./vendor/lit-html/directives/unsafe-svg.js";

// unsafeHTML / unsafeSVG only for the drawings of tiles.js and board.js: markup
// made of numbers, never of text from people or the server.
export { html, keyed, nothing, render, repeat, svg, unsafeHTML, unsafeSVG };

// `<div ${css("left:4px;top:2px")}>`: computed styles through element.style,
// which the Content-Security-Policy allows (a style="" attribute it refuses).
class CssDirective extends Directive {
  render() {
    return noChange;
  }

  update(part, [text]) {
    if (part.element.style.cssText !== text) part.element.style.cssText = text;
    return noChange;
  }
}

export const css = directive(CssDirective);
