// The page's words: numbers written in the page's language, and its messages (page.js reads them)
// filled in. The game and replay pages share them.

/** Numbers as the page's language writes them (12 345 in Czech), or plain where that is unknown. */
export function numberFormat() {
  try {
    const nf = new Intl.NumberFormat(document.documentElement.lang || undefined);
    return (n) => nf.format(n);
  } catch {
    return (n) => String(n);
  }
}

/** `template` with each `{name}` replaced by `values[name]`; unknown names are left as they are. */
export function fill(template, values) {
  return String(template || '').replace(/\{(\w+)\}/g, (m, name) => (name in values ? values[name] : m));
}

/** A direction as the page's language names it. */
export const directionName = (messages, direction) => (messages.directions && messages.directions[direction]) || direction;
