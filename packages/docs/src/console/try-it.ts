/**
 * The request console of the docs (browser code, bundled by the build into assets/try-it.js): Swagger
 * UI (swagger-ui-dist, loaded beside it) with the version's document, and plugins that show, above
 * every answer, whether it keeps the document's contract (contract.ts), keep the gateway the reader
 * chose for the next visit (gateway-choice.ts), offer the last quote received to create-order
 * (last-quote.ts), clear an operation's previous answer when a request is refused before it is sent
 * (a required parameter missing), and scroll an operation opened by a link
 * to below the site's sticky header.
 */
import { createSchemaValidator, type OpenApiDocument } from '@swap-gateway/openapi';
import { checkAnswer } from './contract.js';
import { gatewayChoice, type ConsoleSystem } from './gateway-choice.js';
import { lastQuotePlugin } from './last-quote.js';

interface ImmutableMap {
  get(key: string): unknown;
  toJS?(): unknown;
}

interface LiveResponseProps {
  response: ImmutableMap;
  path: string;
  method: string;
}

interface SwaggerSystem {
  React: { createElement(type: unknown, props: object | null, ...children: unknown[]): unknown };
  specActions: { clearResponse(path: string, method: string): unknown; clearRequest(path: string, method: string): unknown };
}

/** Height of the site header (header.css), which stays at the top of the window as the page scrolls. */
const stickyHeaderHeight = 56;

declare global {
  interface Window {
    SwaggerUIBundle(options: Record<string, unknown>): ConsoleSystem;
    swapGatewayConsole(options: { spec: OpenApiDocument; domId: string }): void;
  }
}

function headerOf(response: ImmutableMap, name: string): string | undefined {
  const headers = response.get('headers') as ImmutableMap | Record<string, string> | undefined;
  const plain = (headers && typeof (headers as ImmutableMap).toJS === 'function' ? (headers as ImmutableMap).toJS!() : headers) as
    | Record<string, string>
    | undefined;
  return Object.entries(plain ?? {}).find(([key]) => key.toLowerCase() === name)?.[1];
}

window.swapGatewayConsole = ({ spec, domId }) => {
  const validator = createSchemaValidator(spec);
  const contractPlugin = () => ({
    wrapComponents: {
      liveResponse: (Original: unknown, system: SwaggerSystem) => (props: LiveResponseProps) => {
        const { response } = props;
        const verdict = checkAnswer(spec, validator, {
          path: props.path,
          method: props.method,
          status: Number(response.get('status')) || undefined,
          contentType: headerOf(response, 'content-type'),
          body: String(response.get('text') ?? ''),
        });
        const { createElement } = system.React;
        return createElement(
          'div',
          null,
          createElement(
            'p',
            { className: `contract-verdict ${verdict.ok ? 'contract-ok' : 'contract-broken'}`, role: 'status' },
            verdict.message,
          ),
          createElement(Original, props),
        );
      },
    },
  });
  // A request refused before it is sent (Swagger UI's own check: a required parameter missing) leaves
  // no answer of an earlier request under the message, nor its verdict: Swagger UI clears the
  // operation's parameter errors just before it shows them again, and only then.
  const refusedPlugin = () => ({
    statePlugins: {
      spec: {
        wrapActions: {
          clearValidateParams:
            (original: (pathMethod: [string, string]) => unknown, system: SwaggerSystem) => (pathMethod: [string, string]) => {
              system.specActions.clearResponse(...pathMethod);
              system.specActions.clearRequest(...pathMethod);
              return original(pathMethod);
            },
        },
      },
    },
  });
  // Swagger UI scrolls an operation opened by a link (deep linking) to the top of the window, under
  // the site's header: scroll it to just below the header instead.
  const scrollPlugin = () => ({
    statePlugins: {
      layout: {
        wrapActions: {
          scrollToElement: () => (element: Element) => {
            const top = element.getBoundingClientRect().top + window.scrollY - stickyHeaderHeight - 8;
            window.scrollTo({ top: Math.max(0, top), behavior: 'auto' });
            return () => undefined;
          },
        },
      },
    },
  });
  const gateway = gatewayChoice(spec);
  const system = window.SwaggerUIBundle({
    spec: gateway.spec,
    dom_id: domId,
    deepLinking: true,
    tryItOutEnabled: true,
    displayRequestDuration: true,
    // The document's x- notes for API review (x-inferred, x-unspecified) are not for readers of the console.
    showExtensions: false,
    showCommonExtensions: false,
    // The API key, when the reader gives one, is kept in this browser's storage for the next visit.
    persistAuthorization: true,
    // Swagger UI would otherwise send the document to validator.swagger.io for a badge.
    validatorUrl: null,
    plugins: [contractPlugin, gateway.plugin, lastQuotePlugin, refusedPlugin, scrollPlugin],
    // Once the operations are shown, the gateway chosen on an earlier visit is chosen again.
    onComplete: () => gateway.restore(system),
  });
};
