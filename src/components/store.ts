/**
 * Structure-of-arrays component stores for bitECS 0.4.
 *
 * A store is a plain object of typed arrays indexed by entity id (bitECS
 * components are any object). Stores grow by reallocation when an entity id
 * reaches the capacity (the world's onAdd observers grow a store in
 * addComponent: src/systems/ecs.ts), so systems and games must read a store's
 * fields afresh after addComponent and each step, and never keep a typed-array
 * reference across entity creation.
 */

export type Field = Float64Array | Int32Array | Uint8Array;
export type FieldKind = 'f64' | 'i32' | 'u8';

export type StoreOf<S extends Record<string, FieldKind>> = {
  [K in keyof S]: S[K] extends 'f64' ? Float64Array : S[K] extends 'i32' ? Int32Array : Uint8Array;
};

function allocate(kind: FieldKind, n: number): Field {
  if (kind === 'f64') return new Float64Array(n);
  if (kind === 'i32') return new Int32Array(n);
  return new Uint8Array(n);
}

/** Create a store with one typed array per field. */
export function defineStore<S extends Record<string, FieldKind>>(spec: S, capacity: number): StoreOf<S> {
  const store: Record<string, Field> = {};
  for (const key of Object.keys(spec)) store[key] = allocate(spec[key]!, capacity);
  Object.defineProperty(store, '__spec', { value: spec, enumerable: false });
  return store as StoreOf<S>;
}

/** Make every field of `store` hold at least `needed` entries (doubling). */
export function ensureCapacity(store: object, needed: number): void {
  const fields = store as Record<string, Field>;
  const spec = (store as { __spec: Record<string, FieldKind> }).__spec;
  for (const key of Object.keys(spec)) {
    const old = fields[key]!;
    if (old.length >= needed) continue;
    let n = Math.max(16, old.length);
    while (n < needed) n *= 2;
    const grown = allocate(spec[key]!, n);
    grown.set(old);
    fields[key] = grown;
  }
}

/** Zero every field of `store` at entity `eid` (a recycled id must not inherit an old entity's data). */
export function resetEntity(store: object, eid: number): void {
  const fields = store as Record<string, Field>;
  const spec = (store as { __spec: Record<string, FieldKind> }).__spec;
  for (const key in spec) fields[key]![eid] = 0;
}
