import { urlLabel } from '../../internal/redact-url.js';
import { Semaphore } from './semaphore.js';

/**
 * The URL of `path` (e.g. `/chat/completions`) under a base URL, keeping the base's query: some gateways
 * take their key or API version there (`...?api-key=...`), and a plain concatenation would put the path
 * inside the query.
 */
export function endpointUrl(baseURL: string, path: string): string {
  const url = new URL(baseURL);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}${path}`;
  return url.toString();
}

/** One server behind the backend: its URL, a printable label and its own concurrency limit. */
export interface Replica {
  readonly baseURL: string;
  /** The URL without credentials: what errors and logs show. */
  readonly label: string;
  readonly semaphore: Semaphore;
}

/**
 * Spreads requests across replicas: the least loaded one (holders plus waiters, relative to its
 * limit) wins, ties go round-robin so equal replicas share evenly. A retry avoids the replicas that
 * already failed this call while another one is left, so one sick server does not eat every attempt.
 */
export class ReplicaPool {
  readonly replicas: readonly Replica[];
  private next = 0;

  constructor(baseURLs: readonly string[], limitPerReplica: number) {
    this.replicas = baseURLs.map((baseURL) => ({
      baseURL: baseURL.replace(/\/+$/, ''),
      label: urlLabel(baseURL),
      semaphore: new Semaphore(limitPerReplica),
    }));
  }

  pick(avoid: ReadonlySet<Replica> = new Set()): Replica {
    const candidates = this.replicas.filter((replica) => !avoid.has(replica));
    const pool = candidates.length > 0 ? candidates : this.replicas;
    const start = this.next++ % pool.length;
    let best = pool[start] as Replica;
    for (let offset = 1; offset < pool.length; offset++) {
      const replica = pool[(start + offset) % pool.length] as Replica;
      if (replica.semaphore.load / replica.semaphore.limit < best.semaphore.load / best.semaphore.limit) {
        best = replica;
      }
    }
    return best;
  }
}
