import {
  formatHours,
  formatMoney,
  outcomeSentence,
  type Transcript,
  type TranscriptTurn,
} from '../simulation/transcript.js';
import { escapeHtml } from './html.js';

function turnHtml(turn: TranscriptTurn, currency: string): string {
  const price =
    turn.price === null ? '' : `<span class="price">${escapeHtml(formatMoney(turn.price, currency))}</span>`;
  const labels = turn.labels.map((label) => `<span class="label">${escapeHtml(label)}</span>`).join('');
  const message = turn.message === '' ? '' : `<p class="message">${escapeHtml(turn.message)}</p>`;
  const broke = turn.violation ? `<p class="violation">broke a rule: ${escapeHtml(turn.violation)}</p>` : '';
  return `<li class="turn ${turn.role}" data-role="${turn.role}" data-action="${turn.action}"${turn.price === null ? '' : ` data-price="${turn.price}"`}><div class="turn-head"><span class="who">${turn.role}</span><span class="action">${turn.action.replaceAll('_', ' ')}</span>${price}<span class="time" title="${escapeHtml(`${turn.elapsedHours} h since the session started`)}">${escapeHtml(formatHours(turn.elapsedHours))}</span></div>${labels ? `<div class="labels">${labels}</div>` : ''}${message}${broke}</li>`;
}

function transcriptHtml(transcript: Transcript): string {
  const status =
    transcript.outcome.status === 'deal'
      ? 'deal'
      : transcript.outcome.reason === 'error' || transcript.outcome.reason === 'aborted'
        ? 'failed'
        : 'no-deal';
  const turns = transcript.turns.map((turn) => turnHtml(turn, transcript.currency)).join('');
  const error = transcript.error ? `<p class="violation">${escapeHtml(transcript.error)}</p>` : '';
  return `<article class="transcript" data-session="${escapeHtml(transcript.sessionId)}" data-outcome="${transcript.outcome.reason}">
<header><h3>${escapeHtml(transcript.title)}</h3><p class="note">${escapeHtml(transcript.sessionId)} · list ${escapeHtml(formatMoney(transcript.listPrice, transcript.currency))}${transcript.category ? ` · ${escapeHtml(transcript.category)}` : ''} · buyer: ${escapeHtml(transcript.negotiators.buyer)} · seller: ${escapeHtml(transcript.negotiators.seller)}</p></header>
<ol class="dialogue">${turns || '<li class="turn none">no turns</li>'}</ol>
<p class="outcome ${status}">${escapeHtml(outcomeSentence(transcript))}</p>${error}
</article>`;
}

/** A sample of sessions as dialogues: buyer on the left, seller on the right, the outcome below. */
export function renderTranscripts(
  transcripts: readonly Transcript[],
  how: { seed: number; of: number },
): string {
  if (transcripts.length === 0) return '<p class="note">No sessions to show.</p>';
  return `<p class="note">${transcripts.length} of ${how.of} sessions, sampled by how they ended (every ending present gets one before any gets a second; seed ${how.seed}). <code>haggle show RUN.jsonl --session ID</code> prints any session the same way.</p>
<div class="transcripts">${transcripts.map(transcriptHtml).join('\n')}</div>`;
}
