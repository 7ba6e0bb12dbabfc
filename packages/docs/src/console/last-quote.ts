/**
 * "Use the last quote" in the console (browser code, part of assets/try-it.js): every quote the
 * console receives (a 200 of get-quote) is kept in localStorage, across the V4 and V3 console pages
 * and reloads, and create-order of both versions offers a button that puts it in the request body,
 * unchanged, as create-order wants it.
 */

const storageKey = 'swap-gateway-docs:console-last-quote';

/** The operation whose answer is a quote, and the operations that take one. */
const quoteSource = 'get /v4/get-quote';
const quoteTargets = new Set(['post /v4/create-order', 'post /v3/create-order']);

interface SavedQuote {
  body: string;
  /** When it was received, ISO 8601. */
  at: string;
}

interface ImmutableList {
  toJS(): unknown[];
}

interface RequestBodyProps {
  specPath: ImmutableList;
  isExecute?: boolean;
}

interface SwaggerResponse {
  status?: number;
  text?: string;
}

interface ReactLike {
  createElement(type: unknown, props: object | null, ...children: unknown[]): unknown;
  useState<T>(initial: T): [T, (value: T) => void];
}

interface LastQuoteSystem {
  React: ReactLike;
  oas3Actions: { setRequestBodyValue(change: { value: string; pathMethod: [string, string] }): unknown };
}

function read(): SavedQuote | undefined {
  try {
    const saved = JSON.parse(localStorage.getItem(storageKey) ?? 'null') as SavedQuote | null;
    return saved && typeof saved.body === 'string' ? saved : undefined;
  } catch {
    return undefined;
  }
}

function save(body: string): void {
  try {
    localStorage.setItem(storageKey, JSON.stringify({ body, at: new Date().toISOString() } satisfies SavedQuote));
  } catch {
    // A page opened from disk may have no storage: the quote is then not kept.
  }
}

export const lastQuotePlugin = () => ({
  statePlugins: {
    spec: {
      wrapActions: {
        // Every answer of an operation passes here, as Swagger UI stores it.
        setResponse:
          (original: (path: string, method: string, response: SwaggerResponse) => unknown) =>
          (path: string, method: string, response: SwaggerResponse) => {
            if (`${method} ${path}`.toLowerCase() === quoteSource && response?.status === 200 && response.text) save(response.text);
            return original(path, method, response);
          },
      },
    },
  },
  wrapComponents: {
    RequestBody: (Original: unknown, system: LastQuoteSystem) => (props: RequestBodyProps) => {
      const { createElement, useState } = system.React;
      const [, path = '', method = ''] = props.specPath.toJS() as string[];
      const [note, setNote] = useState('');
      const original = createElement(Original, props);
      if (!props.isExecute || !quoteTargets.has(`${method} ${path}`.toLowerCase())) return original;
      const useLastQuote = () => {
        const saved = read();
        if (!saved) {
          setNote('No quote yet: send get-quote (V4) first, here or on the V4 console.');
          return;
        }
        system.oas3Actions.setRequestBodyValue({ value: saved.body, pathMethod: [path, method] });
        setNote(`The quote received at ${new Date(saved.at).toLocaleTimeString()}, unchanged.`);
      };
      return createElement(
        'div',
        null,
        createElement(
          'div',
          { className: 'last-quote' },
          createElement('button', { type: 'button', className: 'btn last-quote-button', onClick: useLastQuote }, 'Use the last quote'),
          note ? createElement('span', { className: 'last-quote-note', role: 'status' }, note) : null,
        ),
        original,
      );
    },
  },
});
