/**
 * Parse-time limits and XML policies of the scene loader (issue 16), checked by one linear scan
 * before fast-xml-parser sees the text, so every rejection is a located InputError and parse time
 * is bounded by the file size:
 *
 *  - size, nesting depth, tag count and attribute length limits (XML_LIMITS);
 *  - DOCTYPE declarations (and so entity definitions) are rejected: FOSSSim scenes never use them,
 *    and entity expansion is the classic XML bomb. The five predefined entities (&amp; &lt; &gt;
 *    &quot; &apos;) and character references are still read;
 *  - tag and attribute names that are JavaScript object keys (`__proto__`, `constructor`, …) are
 *    rejected (the parser refuses or renames them).
 *
 * `xmlParserError` turns anything the parser still throws into an InputError naming the file.
 */
import { InputError } from '../errors';

export const XML_LIMITS = {
  /** Characters in a scene file. */
  maxChars: 200_000_000,
  /** Element nesting depth (a FOSSSim scene has 2: <scene> and its children). */
  maxDepth: 16,
  /** Elements in a file. */
  maxTags: 2_000_000,
  /** Characters in one attribute value (a polygon's `points` is the longest). */
  maxAttributeChars: 4_000_000,
} as const;

/** Names fast-xml-parser refuses or renames: they are keys of every JavaScript object. */
const RESERVED_NAMES = new Set([
  '__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString', 'valueOf',
  '__defineGetter__', '__defineSetter__', '__lookupGetter__', '__lookupSetter__',
]);

const isSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 13;
const isNameEnd = (c: number) => isSpace(c) || c === 47 /* / */ || c === 62 /* > */ || c === 61 /* = */;

/**
 * Check the limits and policies above in one pass; throws a located InputError. Malformed markup
 * is left to the XML validator that runs next (the scan only skips over it).
 */
export function checkXmlLimits(text: string, source: string): void {
  const n = text.length;
  if (n > XML_LIMITS.maxChars) {
    throw new InputError(`${source}: the file has ${n} characters; expected at most ${XML_LIMITS.maxChars} (a scene-size limit)`);
  }
  let line = 1;
  let i = 0;
  let depth = 0;
  let tags = 0;
  const fail = (what: string): never => {
    throw new InputError(`${source}: line ${line}: ${what}`);
  };
  /** Move i to `to`, counting the newlines passed. */
  const advance = (to: number) => {
    const stop = to < n ? to : n;
    for (; i < stop; i++) if (text.charCodeAt(i) === 10) line++;
  };
  /** Skip to just past `end` (or to the end of the text). */
  const skipPast = (end: string) => {
    const k = text.indexOf(end, i);
    advance(k < 0 ? n : k + end.length);
  };
  while (i < n) {
    const lt = text.indexOf('<', i);
    if (lt < 0) break;
    advance(lt);
    if (text.startsWith('<!--', i)) { skipPast('-->'); continue; }
    if (text.startsWith('<![CDATA[', i)) { skipPast(']]>'); continue; }
    if (text.startsWith('<?', i)) { skipPast('?>'); continue; }
    if (text.startsWith('<!', i)) {
      if (text.slice(i + 2, i + 9).toUpperCase() === 'DOCTYPE') {
        fail('a <!DOCTYPE> declaration; expected none: Elastica does not read DTDs or define entities (FOSSSim scenes never use them); remove it');
      }
      skipPast('>');
      continue;
    }
    if (text.startsWith('</', i)) {
      depth--;
      skipPast('>');
      continue;
    }
    // A start tag: its name, then attributes up to '>' or '/>'.
    i++;
    const nameStart = i;
    while (i < n && !isNameEnd(text.charCodeAt(i))) i++;
    const name = text.slice(nameStart, i);
    if (RESERVED_NAMES.has(name)) fail(`tag name <${name}> is reserved (a JavaScript object key); expected a scene tag`);
    if (++tags > XML_LIMITS.maxTags) fail(`more than ${XML_LIMITS.maxTags} tags; expected at most that many (a scene-size limit)`);
    let selfClosing = false;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 62 /* > */) { i++; break; }
      if (c === 47 /* / */ && text.charCodeAt(i + 1) === 62) { selfClosing = true; i += 2; break; }
      if (c === 60 /* < */) break; // malformed: the validator reports it
      if (isSpace(c)) { advance(i + 1); continue; }
      if (c === 34 || c === 39) { // a quoted value
        const end = text.indexOf(c === 34 ? '"' : "'", i + 1);
        if (end < 0) return; // unterminated: the validator reports it
        if (end - i - 1 > XML_LIMITS.maxAttributeChars) {
          fail(`an attribute value of ${end - i - 1} characters; expected at most ${XML_LIMITS.maxAttributeChars}`);
        }
        advance(end + 1);
        continue;
      }
      const attrStart = i;
      while (i < n && !isNameEnd(text.charCodeAt(i)) && text.charCodeAt(i) !== 34 && text.charCodeAt(i) !== 39) i++;
      if (i === attrStart) { i++; continue; } // a stray '=': the validator reports it
      const attr = text.slice(attrStart, i);
      if (RESERVED_NAMES.has(attr)) fail(`<${name}>: attribute name '${attr}' is reserved (a JavaScript object key); expected a scene attribute`);
    }
    if (!selfClosing && (depth += 1) > XML_LIMITS.maxDepth) {
      fail(`<${name}> is nested ${depth} elements deep; expected at most ${XML_LIMITS.maxDepth} (a FOSSSim scene has 2)`);
    }
  }
}

/** An error thrown inside the XML parser, as an InputError naming the file. */
export function xmlParserError(e: unknown, source: string): InputError {
  if (e instanceof InputError) return e;
  const msg = e instanceof Error ? e.message : String(e);
  return new InputError(`${source}: malformed XML: ${msg}`);
}
