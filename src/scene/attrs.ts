/**
 * Attribute reading for the scene XML loader (src/scene/xml.ts).
 * One TagReader per element: it knows the file, the tag, the tag's index among same-name tags
 * and its line, so every error and warning names all four.
 */
import { InputError } from '../errors';

/** One element of the scene, in document order. */
export interface SceneElement {
  tag: string;
  /** 0-based index among the tags with the same name (the index other tags refer to). */
  n: number;
  /** 1-based line of the start tag, 0 if unknown. */
  line: number;
  attrs: Record<string, string>;
}

/** A numeric constraint: `what` completes "expected ...". */
export interface NumCheck {
  what: string;
  ok: (x: number) => boolean;
}

export const ANY: NumCheck = { what: 'a finite number', ok: () => true };
export const POSITIVE: NumCheck = { what: 'a number > 0', ok: (x) => x > 0 };
export const NON_NEGATIVE: NumCheck = { what: 'a number >= 0', ok: (x) => x >= 0 };
export const UNIT: NumCheck = { what: 'a number in [0, 1]', ok: (x) => x >= 0 && x <= 1 };

/** Plain decimal numbers: optional sign, digits with optional fraction, optional exponent. */
const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

export class TagReader {
  private readonly used = new Set<string>();
  readonly source: string;
  readonly el: SceneElement;
  private readonly warnings: string[];

  constructor(source: string, el: SceneElement, warnings: string[]) {
    this.source = source;
    this.el = el;
    this.warnings = warnings;
  }

  /** `scene.xml: <particle> #3` */
  get where(): string {
    return `${this.source}: <${this.el.tag}> #${this.el.n}`;
  }

  private get lineSuffix(): string {
    return this.el.line > 0 ? ` (line ${this.el.line})` : '';
  }

  /** Throw an InputError about this tag. */
  fail(detail: string): never {
    throw new InputError(`${this.where}: ${detail}${this.lineSuffix}`);
  }

  /** Throw an InputError about one attribute of this tag. */
  failAttr(name: string, expected: string, raw: string | undefined): never {
    if (raw === undefined) this.fail(`missing required attribute '${name}' (expected ${expected})`);
    this.fail(`attribute '${name}': expected ${expected}, got ${JSON.stringify(raw)}`);
  }

  warn(detail: string): void {
    this.warnings.push(`${this.where}: ${detail}${this.lineSuffix}`);
  }

  has(name: string): boolean {
    return Object.prototype.hasOwnProperty.call(this.el.attrs, name);
  }

  /** The raw attribute value (marked as used), or undefined. */
  raw(name: string): string | undefined {
    if (!this.has(name)) return undefined;
    this.used.add(name);
    return this.el.attrs[name];
  }

  /** A string attribute; required unless a default is given. */
  str(name: string, def?: string): string {
    const raw = this.raw(name);
    if (raw === undefined) {
      if (def !== undefined) return def;
      this.failAttr(name, 'a value', undefined);
    }
    return raw;
  }

  /**
   * A number attribute: trimmed, plain decimal syntax, finite, and passing `check`.
   * Required unless `def` is given.
   */
  num(name: string, check: NumCheck = ANY, def?: number): number {
    const raw = this.raw(name);
    if (raw === undefined) {
      if (def !== undefined) return def;
      this.failAttr(name, check.what, undefined);
    }
    const t = raw.trim();
    const v = DECIMAL.test(t) ? Number(t) : Number.NaN;
    if (!Number.isFinite(v) || !check.ok(v)) this.failAttr(name, check.what, raw);
    return v;
  }

  /** An integer attribute >= min (required unless `def` is given). */
  int(name: string, min: number, def?: number): number {
    return this.num(name, { what: `an integer >= ${min}`, ok: (x) => Number.isInteger(x) && x >= min }, def);
  }

  /** An index into a list of `count` `kind` tags (e.g. particles). */
  index(name: string, count: number, kind: string): number {
    const a = /^[aeiou]/.test(kind) ? 'an' : 'a';
    const what =
      count > 0
        ? `${a} ${kind} index (an integer from 0 to ${count - 1})`
        : `${a} ${kind} index, but the scene has no <${kind}> tags`;
    return this.num(name, { what, ok: (x) => Number.isInteger(x) && x >= 0 && x < count });
  }

  /** A boolean attribute: 0/1/true/false. */
  bool(name: string, def?: boolean): boolean {
    const raw = this.raw(name);
    if (raw === undefined) {
      if (def !== undefined) return def;
      this.failAttr(name, '0, 1, true or false', undefined);
    }
    const t = raw.trim().toLowerCase();
    if (t === '1' || t === 'true') return true;
    if (t === '0' || t === 'false') return false;
    this.failAttr(name, '0, 1, true or false', raw);
  }

  /** r, g, b in [0, 1]. */
  rgb(): { r: number; g: number; b: number } {
    return { r: this.num('r', UNIT), g: this.num('g', UNIT), b: this.num('b', UNIT) };
  }

  /** Require the named particle indices to be pairwise distinct. */
  distinct(names: string[], values: number[]): void {
    for (let a = 0; a < values.length; a++) {
      for (let b = a + 1; b < values.length; b++) {
        if (values[a] === values[b]) {
          this.fail(
            `attributes '${names[a]}' and '${names[b]}' both name particle ${values[a]}; expected distinct particles`,
          );
        }
      }
    }
  }

  /** Warn about attributes that no reader asked for (typos, unsupported extensions). */
  finish(): void {
    for (const name of Object.keys(this.el.attrs)) {
      if (!this.used.has(name)) this.warn(`unknown attribute '${name}' ignored`);
    }
  }
}
