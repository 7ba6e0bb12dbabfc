/**
 * Before any test: is the target there, and is it the gateway? One `GET /v4/get-routes` with the
 * run's key must answer within a few seconds with a JSON array. Anything else ends the run at once
 * with one line that says what was found, instead of every test failing on its own.
 */
import type { TargetInfo } from './target.js';

const timeoutMs = 5_000;

export async function targetProblem(target: TargetInfo): Promise<string | undefined> {
  const where = `the ${target.name} target at ${target.url}`;
  let response: Response;
  try {
    response = await fetch(`${target.url}/v4/get-routes`, {
      headers: { accept: 'application/json', ...(target.apiKey ? { authorization: `Bearer ${target.apiKey}` } : {}) },
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const detail = cause?.message ?? (error as Error).message;
    return `${where} is unreachable: ${cause?.code && !detail.includes(cause.code) ? `${cause.code}: ` : ''}${detail}`;
  }
  const type = response.headers.get('content-type') ?? 'no content type';
  const text = await response.text().catch(() => '');
  if (response.status === 401) return `${where} refused the API key (401): set GATEWAY_API_KEY to a key it issued`;
  let routes: unknown;
  try {
    routes = JSON.parse(text);
  } catch {
    routes = undefined;
  }
  if (response.status !== 200 || !Array.isArray(routes)) {
    return `${where} does not answer as the gateway: GET /v4/get-routes answered ${response.status} ${type.split(';')[0]} (${JSON.stringify(text.slice(0, 80))})`;
  }
  return undefined;
}
