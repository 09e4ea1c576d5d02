import { writeFileSync } from 'node:fs';

/**
 * Writes a file of real-format session records (no run header, as `loadSessions` reads real sessions)
 * with exactly the counts a test needs: `deals` of `sessions` end in an accepted offer, the rest in a
 * declined one, and the first `messages` carry a message. Cheap where simulating 20,000 sessions to land
 * on a given deal rate is not; every line is a valid session that `haggle compare` validates as it reads.
 */
export function writeCountedRun(
  path: string,
  counts: { sessions: number; deals: number; messages?: number; profile?: string },
): void {
  const side = counts.profile ? { kind: 'llm', profile: counts.profile } : { kind: 'human' };
  const lines: string[] = [];
  for (let i = 0; i < counts.sessions; i++) {
    const deal = i < counts.deals;
    const message = i < (counts.messages ?? 0);
    const opening = message
      ? {
          action: 'offer_with_message',
          price: 80,
          message_labels: ['build_rapport'],
          message: 'Hi, would you take 80?',
          response_time: 1,
        }
      : { action: 'offer', price: 80, message_labels: [], message: '', response_time: 1 };
    const answer = {
      action: deal ? 'accept' : 'decline',
      price: null,
      message_labels: [],
      message: '',
      response_time: 2,
    };
    lines.push(
      JSON.stringify({
        type: 'session',
        index: i,
        sessionId: `counted-${i}`,
        seed: i,
        context: { id: `c${i}`, item: { title: 'Paperback novel' }, listPrice: 100, currency: 'USD' },
        turns: [
          { role: 'buyer', turn: opening, elapsedHours: 1 },
          { role: 'seller', turn: answer, elapsedHours: 3 },
        ],
        outcome: {
          status: deal ? 'deal' : 'no-deal',
          reason: deal ? 'accepted' : 'declined',
          price: deal ? 80 : null,
          turns: 2,
          elapsedHours: 3,
        },
        negotiators: { buyer: side, seller: side },
        rules: { name: 'best-offer' },
      }),
    );
  }
  writeFileSync(path, `${lines.join('\n')}\n`);
}
