/**
 * Just enough man(7) to write deadman's pages: text is escaped so that a backslash, a leading
 * dot or quote, and a hyphen (which groff would print as a typographic dash) come out as typed.
 */

export function roffText(text: string): string {
  const escaped = text.replace(/\\/g, '\\e').replace(/-/g, '\\-');
  return /^[.']/.test(escaped) ? `\\&${escaped}` : escaped;
}

/** A section heading, `.SH "EXIT STATUS"`. */
export function heading(title: string): string {
  return `.SH "${title.replace(/"/g, '')}"`;
}

export function subheading(title: string): string {
  return `.SS "${roffText(title).replace(/"/g, '\\(dq')}"`;
}

/** A tagged paragraph: the tag in bold (`.TP`), the body indented under it. */
export function tagged(tag: string, body: string): string[] {
  return ['.TP', `.B ${roffText(tag)}`, roffText(body)];
}

/**
 * The page header; no date, so a rebuild of the same version writes the same file. No
 * hyphenation and a ragged right edge: option names and paths stay whole, searchable with `/`.
 */
export function titleLine(name: string, section: number, version: string, manual: string): string {
  return `.TH "${name.toUpperCase()}" "${section}" "" "deadman ${version}" "${manual}"\n.nh\n.ad l`;
}
