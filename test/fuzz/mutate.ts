/**
 * Seeded mutations of FOSSSim scene text, as a hostile user would write them (issue 16): deleted,
 * duplicated and swapped tags, hostile numbers (NaN, ∞, 1e308, denormals, out-of-range indices),
 * truncation, BOM, CRLF, deep nesting, DOCTYPE / entities, reserved names, garbage, extreme
 * durations and steps, game-mode attributes and colliders. Dev tooling (not shipped).
 */
import { Rng } from '../../src/math/rng';

export const HOSTILE_NUMBERS = [
  'NaN', 'nan', 'inf', '-inf', 'Infinity', '1e308', '-1e308', '1e309', '5e-324', '1e-320', '2.2250738585072014e-308',
  '0', '-0', '-1', '1e17', '-1e17', '1e154', '1e-154', '65', '1e6', '1e-9', '0.9999999999999999', '-0.9999999999999999',
  '', ' ', 'abc', '0x10', '1.5.2', '+1', '.5', '1e', '99999999999999999999', '3', '2', '1', '0.5', '1e-3', '1e12', '-1e20',
] as const;

const RESERVED = ['constructor', '__proto__', 'prototype', 'toString', 'hasOwnProperty'];
const INTEGRATORS = ['explicit-euler', 'symplectic-euler', 'forward-backward-euler', 'linearized-implicit-euler', 'implicit-euler', 'rk4', ''];

/** A tag in the text: [start, end) offsets. */
interface Span {
  start: number;
  end: number;
}

function pick<T>(rng: Rng, list: readonly T[]): T {
  return list[Math.floor(rng.next() * list.length)]!;
}

function int(rng: Rng, n: number): number {
  return Math.floor(rng.next() * n);
}

/** The self-closing or start tags directly inside the scene (a regex is enough for these files). */
function tags(text: string): Span[] {
  const out: Span[] = [];
  const re = /<([A-Za-z_][\w.-]*)\b[^<>]*\/?>/g;
  for (let m = re.exec(text); m; m = re.exec(text)) if (m[1] !== 'scene') out.push({ start: m.index, end: m.index + m[0].length });
  return out;
}

/** Attribute values inside the text: offsets of the value (between the quotes) and the name. */
function attributes(text: string): { name: string; start: number; end: number }[] {
  const out: { name: string; start: number; end: number }[] = [];
  const re = /([A-Za-z_][\w.-]*)\s*=\s*"([^"]*)"/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const start = m.index + m[0].length - 1 - m[2]!.length;
    out.push({ name: m[1]!, start, end: start + m[2]!.length });
  }
  return out;
}

const splice = (text: string, start: number, end: number, insert: string) => text.slice(0, start) + insert + text.slice(end);

/** A random number, often hostile, as text. */
function numberText(rng: Rng): string {
  if (rng.next() < 0.7) return pick(rng, HOSTILE_NUMBERS);
  const e = int(rng, 41) - 20;
  return `${(rng.next() * 2 - 1).toFixed(3)}e${e}`;
}

type Mutation = (text: string, rng: Rng) => string;

export const MUTATIONS: Record<string, Mutation> = {
  deleteTag(text, rng) {
    const t = tags(text);
    if (t.length === 0) return text;
    const s = pick(rng, t);
    return splice(text, s.start, s.end, '');
  },
  duplicateTag(text, rng) {
    const t = tags(text);
    if (t.length === 0) return text;
    const s = pick(rng, t);
    const copy = text.slice(s.start, s.end);
    const at = pick(rng, t);
    return splice(text, at.end, at.end, `\n${copy}`);
  },
  swapTags(text, rng) {
    const t = tags(text);
    if (t.length < 2) return text;
    let a = pick(rng, t), b = pick(rng, t);
    if (a.start > b.start) [a, b] = [b, a];
    if (a.start === b.start) return text;
    const ta = text.slice(a.start, a.end), tb = text.slice(b.start, b.end);
    return text.slice(0, a.start) + tb + text.slice(a.end, b.start) + ta + text.slice(b.end);
  },
  hostileNumber(text, rng) {
    const a = attributes(text);
    if (a.length === 0) return text;
    const s = pick(rng, a);
    return splice(text, s.start, s.end, numberText(rng));
  },
  manyHostileNumbers(text, rng) {
    let out = text;
    for (let k = 0; k < 1 + int(rng, 6); k++) out = MUTATIONS.hostileNumber!(out, rng);
    return out;
  },
  badIndex(text, rng) {
    const a = attributes(text).filter((x) => /^(i|j|i1|i2|i3|edge)$/.test(x.name));
    if (a.length === 0) return text;
    const s = pick(rng, a);
    return splice(text, s.start, s.end, pick(rng, ['-1', '1e9', '0', '1', '2', '3', '1.5', '4294967296', '']));
  },
  truncate(text, rng) {
    return text.slice(0, int(rng, text.length + 1));
  },
  bomCrlf(text, rng) {
    const r = rng.next();
    if (r < 0.33) return `\uFEFF${text}`;
    if (r < 0.66) return text.replace(/\n/g, '\r\n');
    return `\uFEFF${text.replace(/\n/g, '\r')}`;
  },
  deepNesting(text, rng) {
    const depth = pick(rng, [3, 16, 17, 100, 101, 2000]);
    const at = text.lastIndexOf('</scene>');
    const open = '<a>'.repeat(depth), close = '</a>'.repeat(rng.next() < 0.9 ? depth : int(rng, depth));
    return at < 0 ? open + text + close : splice(text, at, at, open + close);
  },
  doctype(text, rng) {
    const decl = pick(rng, [
      '<!DOCTYPE scene>',
      '<!DOCTYPE scene [<!ENTITY a "1">]>',
      '<!DOCTYPE a><!DOCTYPE b>',
      '<!DOCTYPE scene [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>',
      '<!DOCTYPE x SYSTEM "file:///etc/passwd">',
      '<!DOCTYPE',
    ]);
    let out = decl + text;
    if (rng.next() < 0.5) out = out.replace(/"1"/, '"&a;"');
    return out;
  },
  reservedName(text, rng) {
    const name = pick(rng, RESERVED);
    if (rng.next() < 0.5) {
      const t = tags(text);
      if (t.length === 0) return text;
      const s = pick(rng, t);
      return splice(text, s.start + 1, s.start + 1, `${name} x="1"/><`);
    }
    const a = attributes(text);
    if (a.length === 0) return text;
    const s = pick(rng, a);
    return splice(text, s.start - 1, s.start - 1, ` ${name}=`).replace(`${name}="`, `${name}="1" z="`);
  },
  garbage(text, rng) {
    const at = int(rng, text.length + 1);
    let g = '';
    for (let k = 0; k < 1 + int(rng, 12); k++) g += String.fromCharCode(int(rng, 0x250));
    return splice(text, at, at, g);
  },
  integrator(text, rng) {
    return text.replace(/<integrator\b[^>]*\/>/, () => {
      const extra = rng.next() < 0.4 ? ` maxiters="${pick(rng, ['1', '5', '64', '65', '0'])}"` : '';
      return `<integrator type="${pick(rng, INTEGRATORS)}" dt="${pick(rng, ['0.01', '0.1', '1', '10', '1e-320', '1e300', '0.001', '1e-9'])}"${extra}/>`;
    });
  },
  duration(text, rng) {
    return text.replace(/<duration\b[^>]*\/>/, `<duration time="${pick(rng, ['0', '1', '1e6', '1e9', '1e300', '-1', '10'])}"/>`);
  },
  gameContact(text, rng) {
    const at = text.lastIndexOf('</scene>');
    if (at < 0) return text;
    const n = () => numberText(rng);
    const colliders = [
      `<circlecollider cx="${n()}" cy="${n()}" radius="${n()}"/>`,
      `<circlecollider cx="0" cy="-5" radius="${pick(rng, ['1', '1e9', '1e160'])}"/>`,
      `<segmentcollider x1="${n()}" y1="${n()}" x2="${n()}" y2="${n()}"/>`,
      `<polygoncollider points="0 0 ${n()} 0 0 ${n()}"/>`,
      '<halfplane px="0" py="-1" nx="0" ny="1"/>',
    ];
    return splice(text, at, at, `<collision type="${pick(rng, ['game', 'simple', 'none', 'penalty'])}"/>${pick(rng, colliders)}`);
  },
  farParticle(text, rng) {
    const at = text.lastIndexOf('</scene>');
    if (at < 0) return text;
    return splice(text, at, at, `<particle m="${pick(rng, ['1', '0', '5e-324'])}" px="${pick(rng, ['1e9', '1e16', '1e17', '-1e9'])}" py="0" vx="0" vy="0" fixed="0"/>`);
  },
};

const NAMES = Object.keys(MUTATIONS);

/** 1–3 seeded mutations of `text`; returns the result and the mutation names applied. */
export function mutateScene(text: string, rng: Rng): { text: string; applied: string[] } {
  const applied: string[] = [];
  let out = text;
  const count = 1 + int(rng, 3);
  for (let k = 0; k < count; k++) {
    const name = pick(rng, NAMES);
    applied.push(name);
    out = MUTATIONS[name]!(out, rng);
  }
  return { text: out, applied };
}
