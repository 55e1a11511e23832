import { type Observation, shapeOf } from './shape.ts';

/**
 * Calls a provider's HTTP API as one step of the scenario and keeps what it answered (status and the
 * shape of its body). A step that fails does not stop the scenario: its status is the observation, and
 * the steps that need its answer are skipped by the scenario.
 */
export function createRecorder(token: string) {
  const observations: Observation[] = [];
  async function call(
    step: string,
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    body?: unknown,
  ): Promise<{ status: number; json: Record<string, unknown> | null }> {
    const response = await fetch(url, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    let json: Record<string, unknown> | null = null;
    try {
      json = text ? (JSON.parse(text) as Record<string, unknown>) : null;
    } catch {
      json = null;
    }
    observations.push({
      step,
      status: response.status,
      shape: json === null ? (text ? 'text' : 'empty') : shapeOf(json),
    });
    return { status: response.status, json };
  }
  return { call, observations };
}

export type Call = ReturnType<typeof createRecorder>['call'];
