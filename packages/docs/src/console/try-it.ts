/**
 * The request console of the docs (browser code, bundled by the build into assets/try-it.js): Swagger
 * UI (swagger-ui-dist, loaded beside it) with the version's document, and a plugin that shows, above
 * every answer, whether it keeps the document's contract (contract.ts), and the gateway the reader
 * chose kept for the next visit (gateway-choice.ts).
 */
import { createSchemaValidator, type OpenApiDocument } from '@swap-gateway/openapi';
import { checkAnswer } from './contract.js';
import { gatewayChoice, type ConsoleSystem } from './gateway-choice.js';

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
}

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
  const gateway = gatewayChoice(spec);
  const system = window.SwaggerUIBundle({
    spec: gateway.spec,
    dom_id: domId,
    deepLinking: true,
    tryItOutEnabled: true,
    displayRequestDuration: true,
    showExtensions: true,
    // The API key, when the reader gives one, is kept in this browser's storage for the next visit.
    persistAuthorization: true,
    // Swagger UI would otherwise send the document to validator.swagger.io for a badge.
    validatorUrl: null,
    plugins: [contractPlugin, gateway.plugin],
    // Once the operations are shown, the gateway chosen on an earlier visit is chosen again.
    onComplete: () => gateway.restore(system),
  });
};
