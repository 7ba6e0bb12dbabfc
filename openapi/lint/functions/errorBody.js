/**
 * Every 4xx and 5xx response is the structured error body of its version:
 * GatewayErrorV3 under /v3/, GatewayErrorV4 under /v4/ (register-tx may use its
 * own GatewayRegisterTxErrorV4). Works on $refs, so the rule runs unresolved:
 * on the bundle it sees every response; on the sources' root file it sees the
 * component responses only (path files are checked through the bundle).
 *
 * Given a responses map (of an operation, keyed by status) or
 * components.responses (keyed by name, whose suffix V3/V4 gives the version).
 */
const errorSchemas = {
  3: ['GatewayErrorV3'],
  4: ['GatewayErrorV4', 'GatewayRegisterTxErrorV4'],
};
const schemaName = (ref) => /(?:^|\/)(\w+?)(?:\.yaml)?$/.exec(ref ?? '')?.[1];

function check(response, version, at) {
  if (!response || typeof response !== 'object' || response.$ref) return [];
  const allowed = errorSchemas[version];
  if (!allowed) return [{ message: `No error body is known for version ${version}.`, path: at }];
  const content = response.content ?? {};
  const media = Object.keys(content);
  if (media.length === 0) return [{ message: 'An error response must have a JSON body.', path: at }];
  return media.flatMap((type) => {
    const name = schemaName(content[type]?.schema?.$ref);
    return allowed.includes(name)
      ? []
      : [
          {
            message: `Error response body must be ${allowed.join(' or ')} (found ${name ?? 'an inline schema'}).`,
            path: [...at, 'content', type, 'schema'],
          },
        ];
  });
}

export default function errorBody(responses, _options, context) {
  if (!responses || typeof responses !== 'object') return [];
  const inComponents = context.path[0] === 'components';
  const pathVersion = inComponents ? undefined : /^\/v(\d+)\//.exec(String(context.path[1]))?.[1];
  return Object.entries(responses).flatMap(([key, response]) => {
    if (inComponents) {
      const version = /V(\d+)$/.exec(key)?.[1];
      const isError = /^(Unauthorized|TooManyRequests|InternalError|BadRequest|NotFound)/.test(key);
      return isError ? check(response, version, [...context.path, key]) : [];
    }
    return /^[45]/.test(key) ? check(response, pathVersion, [...context.path, key]) : [];
  });
}
