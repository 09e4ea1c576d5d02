// A marketplace page that streams a suggested seller reply from `haggle serve --cors`: the action (in
// words) and the price (in the listing's currency) appear at once, the message as the model writes it,
// its labels as chips. No framework: the events are folded into a partial turn (`foldTurnEvent`) and
// written into the DOM.
//
//   npx haggle serve --backend onnx --model ./qwen3-4b-negotiation-onnx --cors http://localhost:5173
//   npx esbuild examples/web-suggest-reply/main.ts --bundle --format=esm --outfile=examples/web-suggest-reply/dist/main.js
//   npx serve -l 5173 examples/web-suggest-reply   (any static server on the origin given to --cors)
//
// Then open http://localhost:5173/?server=http://127.0.0.1:8000/v1&model=MODEL (see README.md here).
import {
  type Action,
  foldTurnEvent,
  type HistoryEntry,
  type ListingContextInput,
  NegotiationAgent,
  OpenAICompatibleBackend,
  type PartialTurn,
} from 'haggle';

// The DOM this page uses, declared here: the repository type-checks without the DOM library (its
// main entry must not depend on it). An app with `"lib": ["dom"]` drops these lines.
interface Element {
  textContent: string | null;
  className: string;
  /** `data-*` attributes: the raw action and price, beside the words shown (tests and styles read them). */
  dataset: Record<string, string | undefined>;
  replaceChildren(...nodes: Element[]): void;
  addEventListener(type: 'click', listener: () => void): void;
}
declare const document: {
  getElementById(id: string): Element | null;
  createElement(tag: string): Element;
};
declare const location: { search: string };

const context: ListingContextInput = {
  item: { title: 'Canon EF 50mm f/1.8 STM lens', category: 'Cameras & Photo', condition: 'Used – Good' },
  listPrice: 120,
  currency: 'USD',
};
const FLOOR = 95; // the seller's lowest price: a guardrail, not a hint to the model
const history: HistoryEntry[] = [
  {
    role: 'buyer',
    turn: {
      action: 'offer_with_message',
      price: 70,
      message_labels: [],
      message: 'Would you take 70? I can pay right away.',
      response_time: 1,
    },
    elapsedHours: 1,
  },
];

/** What a seller sees on the button or the card, for each action a turn can take. */
const ACTION_WORDS: Record<Action, string> = {
  offer: 'Counter-offer',
  offer_with_message: 'Counter-offer with a message',
  accept: 'Accept the offer',
  decline: 'Decline the offer',
  message_only: 'Reply with a message',
  no_response: 'Leave it unanswered',
};

// Prices in the listing's currency and the reader's locale ("$99.66", "99,66 $" ...).
const money = new Intl.NumberFormat(undefined, { style: 'currency', currency: context.currency ?? 'USD' });

/** A strategy label as a chip reads: `build_rapport` -> "Build rapport". */
function labelWords(label: string): string {
  const words = label.replace(/_/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const params = new URLSearchParams(location.search);
const agent = new NegotiationAgent({
  backend: new OpenAICompatibleBackend({
    baseURL: params.get('server') ?? 'http://127.0.0.1:8000/v1',
    model: params.get('model') ?? 'qwen3-4b-negotiation',
    // The prompt is rendered here, exactly as the model was trained on it.
    endpoint: 'completions',
  }),
  sampling: {
    temperature: 1.0,
    maxTokens: 256,
    ...(params.has('seed') ? { seed: Number(params.get('seed')) } : {}),
  },
  guardrails: { seller: { minPrice: FLOOR } }, // the suggestion never goes below it, whatever the model writes
});

const field = (id: string) => document.getElementById(id) as Element;
let running: AbortController | undefined;

function showListing(): void {
  const { item } = context;
  field('listing-title').textContent = item.title;
  field('listing-meta').textContent = [item.condition, item.category].filter(Boolean).join(' · ');
  field('list-price').textContent = money.format(context.listPrice);
  const offer = history[0]?.turn;
  field('buyer-offer').textContent = offer?.price == null ? '' : money.format(offer.price);
  field('buyer-message').textContent = offer?.message ?? '';
  field('floor').textContent = `Your floor: ${money.format(FLOOR)}. A suggestion never goes below it.`;
}

// In the order the model writes them: the action, then the price, then the message as it is written
// (the labels close before the message starts).
function render(shown: PartialTurn): void {
  const action = field('action');
  action.textContent = shown.action === undefined ? '' : ACTION_WORDS[shown.action];
  action.dataset.action = shown.action ?? '';
  const price = field('price');
  const amount = shown.price ?? undefined;
  price.textContent = amount === undefined ? '' : money.format(amount);
  price.dataset.price = amount === undefined ? '' : String(amount);
  field('message').textContent = shown.message ?? '';
  field('labels').replaceChildren(
    ...(shown.message_labels ?? []).map((label) => {
      const chip = document.createElement('span');
      chip.className = 'chip';
      chip.dataset.label = label;
      chip.textContent = labelWords(label);
      return chip;
    }),
  );
}

async function suggest(): Promise<void> {
  running?.abort(); // a second click cancels the first suggestion's work
  const controller = new AbortController();
  running = controller;
  let shown: PartialTurn = {};
  render(shown);
  field('status').textContent = 'writing…';
  try {
    // A counter with a message: what a suggestion box shows.
    const input = {
      context,
      history,
      role: 'seller' as const,
      legalActions: ['offer_with_message' as const],
    };
    for await (const event of agent.stream(input, { signal: controller.signal })) {
      shown = foldTurnEvent(shown, event);
      render(shown);
      if (event.type === 'turn') field('status').textContent = 'done';
    }
  } catch (error) {
    if (!controller.signal.aborted)
      field('status').textContent = `failed: ${error instanceof Error ? error.message : String(error)}`;
  }
}

showListing();
field('suggest').addEventListener('click', () => void suggest());
