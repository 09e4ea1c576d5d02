// A page that streams a suggested seller reply from `haggle serve --cors`: the action and the price
// appear at once, the message as the model writes it. No framework: the events are folded into a
// partial turn (`foldTurnEvent`) and written into the DOM.
//
//   haggle serve --backend onnx --model ./qwen3-4b-negotiation-onnx --cors http://localhost:5173
//   npx esbuild examples/web-suggest-reply/main.ts --bundle --format=esm --outfile=examples/web-suggest-reply/dist/main.js
//   npx serve -l 5173 examples/web-suggest-reply   (any static server on the origin given to --cors)
//
// Then open http://localhost:5173/?server=http://127.0.0.1:8000/v1&model=MODEL (see README.md here).
import {
  foldTurnEvent,
  type HistoryEntry,
  type ListingContextInput,
  NegotiationAgent,
  OpenAICompatibleBackend,
  type PartialTurn,
} from 'haggle';

// The DOM this page uses, declared here: the repository type-checks without the DOM library (its
// main entry must not depend on it). An app with `"lib": ["dom"]` drops these lines.
interface Field {
  textContent: string | null;
  addEventListener(type: 'click', listener: () => void): void;
}
declare const document: { getElementById(id: string): Field | null };
declare const location: { search: string };

const context: ListingContextInput = {
  item: { title: 'Canon EF 50mm f/1.8 STM lens', category: 'Cameras & Photo', condition: 'Used – Good' },
  listPrice: 120,
  currency: 'USD',
};
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
  guardrails: { seller: { minPrice: 95 } }, // the suggestion never goes below 95, whatever the model writes
});

const field = (id: string) => document.getElementById(id) as Field;
let running: AbortController | undefined;

function render(shown: PartialTurn): void {
  field('action').textContent = shown.action ?? '';
  field('price').textContent = shown.price === undefined || shown.price === null ? '' : String(shown.price);
  field('message').textContent = shown.message ?? '';
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

field('suggest').addEventListener('click', () => void suggest());
