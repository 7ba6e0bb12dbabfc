/**
 * A quote as text with holes for its figures. Of a quote's members, only its figures (token amounts,
 * their USD values, the price impact, and the parties' addresses it repeats) depend on the open
 * parameters (the amount and those addresses); everything else (tokens, chains, slippage, fee
 * rates, affiliates, nulls) is fixed by the other parameters. The quote engine describes a quote as
 * a shape (quote/engine.ts): its members, with a `Figure` where a value depends on an open
 * parameter. A template writes the shape's JSON text and sealed form once, with a hole for each
 * figure; a quote is then the figures' texts put in their holes: no objects built, serialized and
 * walked again for every quote.
 */

/**
 * A member whose value is a figure of the open parameters: its text from the quote's figures (an
 * amount's digits, a point and a sign, or an address, letters and digits: see quote/engine.ts).
 */
export class Figure<Figures> {
  constructor(readonly text: (figures: Figures) => string) {}
}

/** A quote's shape: the quote, where any string may be a figure. */
export type Shape<T, Figures> = T extends string
  ? string | Figure<Figures>
  : T extends ReadonlyArray<infer Item>
    ? Array<Shape<Item, Figures>>
    : T extends object
      ? { [K in keyof T]: Shape<T[K], Figures> }
      : T;

/** The quote of these figures: the shape with each figure's text in its place. */
export const fill = <Figures>(shape: unknown, figures: Figures): unknown => replaceFigures(shape, (figure) => figure.text(figures));

/** A text with holes: the fixed parts around them, and for each hole the figure it takes. */
interface Holed {
  parts: string[];
  figures: number[];
}

/**
 * The texts of a plan's quotes: `{"<route>":<quote>}` as JSON.stringify writes it, and the quote's
 * sealed form as `sealedForm` writes it. The first quote is written from its filled shape by those
 * two functions; the second compiles the template, which writes every quote after it. A plan asked
 * for once (most are) so costs what serializing its quote costs, and no template is made for it.
 */
export class QuoteTemplate<Figures> {
  private compiled: { figures: Array<Figure<Figures>>; json: Holed; form: Holed } | undefined;
  private writtenOnce = false;

  constructor(
    private readonly route: string,
    /** Dropped once compiled. */
    private shape: object | undefined,
    private readonly sealedForm: (quote: object) => string,
  ) {}

  /**
   * Bytes the template keeps once compiled, about: its texts (each fixed value is in both), and a
   * figure's objects and closures. Before it is compiled (the memo sizes a plan when it keeps it),
   * from the shape.
   */
  get size(): number {
    const figureBytes = 256;
    if (this.compiled) {
      const length = ({ parts }: Holed) => parts.reduce((sum, part) => sum + part.length, 0);
      return length(this.compiled.json) + length(this.compiled.form) + this.compiled.figures.length * figureBytes;
    }
    const bytes = (value: unknown): number => {
      if (value instanceof Figure) return figureBytes;
      if (typeof value === 'string') return 2 * value.length + 8;
      if (value === null || typeof value !== 'object') return 8;
      return Object.entries(value).reduce((sum, [name, member]) => sum + name.length + 8 + bytes(member), 0);
    };
    return bytes(this.shape);
  }

  /** The quote's JSON text and sealed form for these figures. */
  write(figures: Figures): { json: string; form: string } {
    const compiled = this.compiled ?? (this.writtenOnce ? this.compile() : undefined);
    if (!compiled) {
      this.writtenOnce = true;
      const quote = fill(this.shape, figures) as object;
      return { json: JSON.stringify({ [this.route]: quote }), form: this.sealedForm(quote) };
    }
    const texts = compiled.figures.map((figure) => figure.text(figures));
    return { json: join(compiled.json, texts, asJsonString), form: join(compiled.form, texts, asSealedString) };
  }

  /**
   * The texts written once from the shape with a marker in place of each figure, and cut at the
   * markers: what the template writes is what the two functions write for the filled shape (the
   * tests compare them on every route).
   */
  private compile() {
    const figures: Array<Figure<Figures>> = [];
    const withMarkers = replaceFigures(this.shape, (figure) => marker(figures.push(figure) - 1)) as object;
    this.compiled = {
      figures,
      json: holed(JSON.stringify({ [this.route]: withMarkers }), markerInJson, figures.length),
      form: holed(this.sealedForm(withMarkers), markerInSealedForm, figures.length),
    };
    this.shape = undefined;
    return this.compiled;
  }
}

/**
 * A figure's marker: its index between two control characters, which no address, token or number of
 * a quote holds. JSON.stringify escapes them as `\u0001`, so both texts stay one byte a character,
 * as V8 writes them fastest.
 */
const marker = (index: number) => `\u0001${index}\u0001`;
const markerInJson = /"\\u0001(\d+)\\u0001"/;
/** A string's sealed form is `s<length>:<text>`: the marker's length is cut away with it. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the marker's control character is what this looks for.
const markerInSealedForm = /s\d+:\u0001(\d+)\u0001/;

/** The shape with `textOf(figure)` in place of each figure. */
function replaceFigures<Figures>(shape: unknown, textOf: (figure: Figure<Figures>) => string): unknown {
  if (shape instanceof Figure) return textOf(shape);
  if (Array.isArray(shape)) return shape.map((item) => replaceFigures(item, textOf));
  if (shape === null || typeof shape !== 'object') return shape;
  // A copy by spread keeps the shape's hidden class: members added one by one made a quote's two
  // dozen a dictionary, which took 4.8 µs to fill and JSON.stringify's slow path to write.
  const quote: Record<string, unknown> = { ...shape };
  for (const name of Object.keys(quote)) {
    const value = quote[name];
    if (value !== null && typeof value === 'object') quote[name] = replaceFigures(value, textOf);
  }
  return quote;
}

/** A text cut at every match of `hole` (whose group is a figure's index); each of `count` figures must have one hole. */
function holed(text: string, hole: RegExp, count: number): Holed {
  // split puts each match's group between the parts it cuts. Each part is copied: V8 makes a long
  // substring a slice of its text, which would keep the whole marked text alive with the template.
  const pieces = text.split(hole);
  const parts = pieces.filter((_, index) => index % 2 === 0).map((part) => Buffer.from(part).toString());
  const figures = pieces.filter((_, index) => index % 2 === 1).map(Number);
  const once = new Set(figures);
  if (figures.length !== count || once.size !== count) {
    throw new Error(
      `a quote template found ${figures.length} holes for ${count} figures: a figure stands where its text is not a whole string`,
    );
  }
  return { parts, figures };
}

// A figure's text is digits, a point and a sign, or an address of letters and digits: nothing in it needs escaping.
const asJsonString = (text: string) => `"${text}"`;
const asSealedString = (text: string) => `s${text.length}:${text}`;

function join(holed: Holed, texts: string[], write: (text: string) => string): string {
  let text = holed.parts[0]!;
  for (let index = 0; index < holed.figures.length; index++) text += write(texts[holed.figures[index]!]!) + holed.parts[index + 1]!;
  return text;
}
