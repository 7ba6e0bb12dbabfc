/**
 * JSON pointers into the bundle and the one `$ref` follower every reader of the document uses. A
 * bundle's references are all local (`#/...`); a reference that leads nowhere, leaves the
 * document or comes back to itself is an error that names the pointer, never an `undefined`.
 */

/** One key as a JSON pointer token (RFC 6901): `~` is `~0`, `/` is `~1`. */
export const escapePointer = (segment: string): string => segment.replace(/~/g, '~0').replace(/\//g, '~1');

const unescapePointer = (token: string): string => token.replace(/~1/g, '/').replace(/~0/g, '~');

/** The local pointer of a path of keys, e.g. `['paths', '/v4/get-quote', 'get']` is `#/paths/~1v4~1get-quote/get`. */
export const pointerTo = (segments: readonly string[]): string => (segments.length ? `#/${segments.map(escapePointer).join('/')}` : '#');

/** The document cannot be read as asked: a reference that is dangling, external or part of a cycle, or a part it must have missing. */
export class DocumentError extends Error {
  constructor(
    message: string,
    /** The `$ref` that failed (or the pointer with nothing at it). */
    readonly pointer: string,
  ) {
    super(message);
    this.name = 'DocumentError';
  }
}

/** The keys of a local pointer; anything but `#` or `#/...` is refused. */
export function pointerSegments(pointer: string): string[] {
  if (pointer === '#') return [];
  if (!pointer.startsWith('#/'))
    throw new DocumentError(`external reference ${pointer}: only local references are read (bundle the document first)`, pointer);
  return pointer.slice(2).split('/').map(unescapePointer);
}

/** The value at a local pointer; throws when there is nothing there. */
export function valueAt(document: unknown, pointer: string): unknown {
  let node = document;
  for (const key of pointerSegments(pointer)) {
    const next = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
    if (next === undefined) throw new DocumentError(`the document has nothing at ${pointer}`, pointer);
    node = next;
  }
  return node;
}

const referenceOf = (node: unknown): string | undefined =>
  node !== null && typeof node === 'object' && typeof (node as { $ref?: unknown }).$ref === 'string'
    ? (node as { $ref: string }).$ref
    : undefined;

/**
 * Follows `$ref`s from a node until an object that is not a reference, and says where it ended:
 * `pointer` is where the node was found (when known) or the last reference followed. Sibling keys
 * of a `$ref` (3.1 allows `summary` and `description` there) do not change what it refers to.
 */
export function resolveReference<T = Record<string, unknown>>(
  document: unknown,
  node: unknown,
  pointer?: string,
): { value: T; pointer: string | undefined } {
  const seen: string[] = [];
  let current = node;
  let at = pointer;
  for (let ref = referenceOf(current); ref !== undefined; ref = referenceOf(current)) {
    if (seen.includes(ref)) throw new DocumentError(`$ref cycle: ${[...seen, ref].join(' → ')}`, ref);
    seen.push(ref);
    try {
      current = valueAt(document, ref);
    } catch (error) {
      if (!(error instanceof DocumentError)) throw error;
      const from = at ?? seen[seen.length - 2];
      throw new DocumentError(`dangling $ref ${ref}${from ? ` at ${from}` : ''}: ${error.message}`, ref);
    }
    at = ref;
  }
  return { value: current as T, pointer: at };
}

/** The object a node refers to, its `$ref`s followed (see `resolveReference`). */
export function resolveRef<T = Record<string, unknown>>(document: unknown, node: unknown): T {
  return resolveReference<T>(document, node).value;
}
