import type { ChatMessage } from '../backends/language-backend.js';
import type { ValidationIssue } from '../contract/errors.js';
import type { Role } from '../contract/history.js';
import type { JsonSchema } from '../contract/json-schema.js';

/** One move the trained side may make now, as a trainer's sampler or reward shaper reads it. */
export interface EnvironmentLegalMove {
  action: string;
  /** For moves that carry a price: the interval it must lie in (and, in best-offer, its time bounds). */
  price?: { min: number; max: number };
  [detail: string]: unknown;
}

/**
 * What the trained model reads before its turn. Field names are snake_case where OpenEnv clients read
 * them (`legal_moves`), as the model's own wire names are kept in `Turn`.
 */
export interface EnvironmentObservation {
  /** The chat the trained model reads (system + user), untrusted text already sanitised. */
  messages: ChatMessage[];
  /** `messages` rendered with the chat template in use, ending where the model's answer begins. */
  prompt: string;
  /** Which template `prompt` was rendered with (`qwen3_nothink` for the multi-issue environments). */
  template: string;
  /** The moves allowed now; empty once the episode is done. */
  legal_moves: EnvironmentLegalMove[];
  /** The JSON Schema of this turn (constrain a sampler with it); null once the episode is done. */
  schema: JsonSchema | null;
  /** The side the trained model plays. */
  role: Role;
  /** 0-based turn of the negotiation the observation is for (both sides' turns counted). */
  turn: number;
  /** Why the step ended the episode, what made an action invalid, the outcome. */
  info: EnvironmentStepInfo;
}

/** Why an episode ended and what came of it; empty while it runs. */
export interface EnvironmentStepInfo {
  /** How the negotiation ended (`accepted`, `walked-away`, `deadline`, `invalid-turn`, `error`, ...). */
  end_reason?: string;
  /** The trained side's text could not be played: what was wrong with it. */
  invalid_action?: { issues: ValidationIssue[] };
  /** The opponent failed (its backend, or an illegal turn): the episode carries no reward (`reward: null`). */
  void?: boolean;
  /** The opponent's error, redacted, when it failed. */
  opponent_error?: { name: string; message: string };
  /** Both sides' utilities of the result (multi-issue environments). */
  utilities?: { buyer: number; seller: number };
  deal?: boolean;
  /** The agreed price (best-offer environments). */
  price?: number | null;
}

/** What `reset` and `step` return: OpenEnv's step result (observation, reward, done). */
export interface EnvironmentStepResult {
  observation: EnvironmentObservation;
  /**
   * The reward of this step: on the step that ends the episode, the episode's reward (null when the
   * episode is void because the opponent failed); before that, the per-step reward (0 unless configured).
   */
  reward: number | null;
  done: boolean;
}

/** An episode's state, as OpenEnv's `state` message returns it (`episode_id`, `step_count`, more). */
export interface EnvironmentState {
  episode_id: string | null;
  /** Actions taken in this episode. */
  step_count: number;
  env: string;
  seed: number | null;
  done: boolean;
  /** The reward the episode ended with (undefined while it runs; null when void). */
  reward?: number | null;
  /** Scenario (multi-issue) or listing (best-offer) the episode plays. */
  scenario_id?: string;
  opponent: string;
  role: Role;
  /** The trained side's raw texts, in order. */
  raw_texts: string[];
}

/** Options of `reset`. */
export interface EnvironmentResetOptions {
  /** Picks the episode (its scenario or listing and the opponent's seed): the same seed, the same episode. */
  seed?: number;
  /** A trainer's own name for the episode, kept in state and in the run file. */
  episodeId?: string;
}

/**
 * One negotiation per episode, the trained side's turns given from outside as the model's raw text:
 * what `createEnvironment` returns and `haggle env serve` serves.
 */
export interface Environment {
  /** The environment's name (`multi-issue-seller`, ...). */
  readonly name: string;
  /** Starts a new episode (abandoning one in progress) and returns the trained side's first observation. */
  reset(options?: EnvironmentResetOptions): Promise<EnvironmentStepResult>;
  /** Plays the trained side's raw text; an invalid one ends the episode with the configured penalty. */
  step(text: string): Promise<EnvironmentStepResult>;
  /** The current episode's state. */
  state(): EnvironmentState;
  /** The finished episode's record (the tournament match format plus raw texts), once done. */
  record(): EpisodeRecord | null;
  /** The first line of a run file of this environment's episodes (a tournament header `haggle analyse` reads). */
  runHeader(): EpisodeRunHeader;
  /** Abandons the episode in progress and frees what it holds. */
  close(): void;
}

/** A finished episode as the run file holds it (a tournament match record, see `EpisodeRecord`). */
export type EpisodeRecord = Record<string, unknown> & { type: 'match'; index: number };

/** A run file's first line: a tournament header whose config names the environment. */
export type EpisodeRunHeader = Record<string, unknown> & {
  type: 'tournament';
  format: 'haggle-tournament';
  suiteId: string;
  config: Record<string, unknown> & { env: string };
};
