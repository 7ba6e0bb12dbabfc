/**
 * The gateway the reader chose in the console (browser code, part of assets/try-it.js): the server of
 * the Servers menu (the sandbox, the mock or "Any base URL") and the values of its variables (the base
 * URL typed), kept in localStorage and chosen again on the next console page and after a reload, as
 * Swagger UI keeps the API key (`persistAuthorization`).
 */
import type { OpenApiDocument } from '@swap-gateway/openapi';

const storageKey = 'swap-gateway-docs:console-gateway';

interface GatewayChoice {
  /** The server's URL as the document writes it (`{baseUrl}` for any base URL). */
  url: string;
  /** The variables of every server the reader gave values to, by server URL. */
  variables: Record<string, Record<string, string>>;
}

interface ServerVariableChange {
  server: string;
  namespace?: string;
  key: string;
  val: string;
}

/** What of Swagger UI's system (what `SwaggerUIBundle` returns) the restore uses. */
export interface ConsoleSystem {
  oas3Actions: { setSelectedServer(url: string, namespace?: string): unknown };
}

type Action<Args extends unknown[]> = (...args: Args) => unknown;

function read(): GatewayChoice | undefined {
  try {
    const saved = JSON.parse(localStorage.getItem(storageKey) ?? 'null') as GatewayChoice | null;
    return saved && typeof saved.url === 'string' && typeof saved.variables === 'object' ? saved : undefined;
  } catch {
    return undefined;
  }
}

function write(choice: GatewayChoice): void {
  try {
    localStorage.setItem(storageKey, JSON.stringify(choice));
  } catch {
    // A page opened from disk may have no storage: the choice then lasts for this page only.
  }
}

/**
 * The document as Swagger UI receives it, with the values saved as its servers' variable defaults
 * (Swagger UI sets a server's variables to their defaults whenever that server is selected), and a
 * Swagger UI plugin that saves what the reader selects and types, and selects the saved server once
 * the console is shown (`restore`, for `onComplete`).
 */
export function gatewayChoice(spec: OpenApiDocument): {
  spec: OpenApiDocument;
  plugin: () => object;
  restore(system: ConsoleSystem): void;
} {
  const servers = (spec.servers ?? []) as Array<{ url: string; variables?: Record<string, { default: string }> }>;
  const saved = read();
  const known = saved && servers.some((server) => server.url === saved.url) ? saved : undefined;
  const choice: GatewayChoice = known ?? { url: servers[0]?.url ?? '', variables: {} };
  const withSaved = {
    ...spec,
    servers: servers.map((server) => ({
      ...server,
      ...(server.variables && {
        variables: Object.fromEntries(
          Object.entries(server.variables).map(([key, variable]) => [
            key,
            { ...variable, default: choice.variables[server.url]?.[key] ?? variable.default },
          ]),
        ),
      }),
    })),
  };
  // Swagger UI selects its first server while it starts; only what happens after the restore is the reader's.
  let restored = false;
  const plugin = () => ({
    statePlugins: {
      oas3: {
        wrapActions: {
          setSelectedServer: (original: Action<[string, string?]>) => (url: string, namespace?: string) => {
            if (restored && !namespace) {
              choice.url = url;
              write(choice);
            }
            return original(url, namespace);
          },
          setServerVariableValue: (original: Action<[ServerVariableChange]>) => (change: ServerVariableChange) => {
            if (restored && !change.namespace) {
              choice.variables[change.server] = { ...choice.variables[change.server], [change.key]: change.val };
              write(choice);
            }
            return original(change);
          },
        },
      },
    },
  });
  return {
    spec: withSaved,
    plugin,
    restore(system) {
      system.oas3Actions.setSelectedServer(choice.url);
      restored = true;
    },
  };
}
