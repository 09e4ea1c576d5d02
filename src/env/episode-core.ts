import { InvalidInputError, InvalidModelOutputError, type ValidationIssue } from '../contract/errors.js';
import type { Role } from '../contract/history.js';
import type {
  Environment,
  EnvironmentObservation,
  EnvironmentResetOptions,
  EnvironmentState,
  EnvironmentStepInfo,
  EnvironmentStepResult,
  EpisodeRecord,
  EpisodeRunHeader,
} from './environment.js';
import type { resolveEpisodeRewards } from './episode-rewards.js';
import { EnvironmentStateError } from './errors.js';
import { TurnHandoff } from './turn-handoff.js';

/** The trained side's turn as the game asks for it: answered by the trainer's next `step`. */
export type TrainedTurn<Input, Turn> = (input: Input, signal?: AbortSignal) => Promise<Turn>;

/** A negotiation the game started for one episode. */
export interface StartedEpisode<Start, Result> {
  /** What the episode plays (a listing, a suite's match), as the game needs it later. */
  start: Start;
  /** The negotiation itself, running until it ends or the episode is abandoned. */
  run: Promise<Result>;
}

/** How the game scores its end: the reward and what `info` says of the outcome. */
export interface EpisodeEnd {
  reward: number | null;
  info: EnvironmentStepInfo;
  /** Turns the negotiation took (the final observation's `turn`). */
  turns: number;
}

/**
 * What an environment's game supplies to the episode core: how an episode starts, how the trained
 * side's raw text becomes a turn, what it reads before its turn, and how the end is scored. The core
 * owns the protocol (reset, step, state, record, abandoning), the same for every game.
 */
export interface EpisodeGame<Input, Turn, Result, Start, Prepared> {
  /** Picks what episode seed `seed` plays and starts the negotiation with `trained` as the trained side. */
  start(episode: {
    seed: number;
    /** The trainer's name for the episode, if it gave one. */
    episodeId: string | undefined;
    trained: TrainedTurn<Input, Turn>;
    signal: AbortSignal;
  }): StartedEpisode<Start, Result>;
  /** A failed negotiation's result (a bug or an abort): the episode ends with it. */
  crashResult(error: unknown, start: Start): Result;
  /** What the trained side's turn needs once (its legal moves, say), worked out when the turn is due. */
  prepare(input: Input): Prepared;
  /** The model's raw text as a turn of this moment, or why it is none. */
  check(
    text: string,
    prepared: Prepared,
  ): { ok: true; turn: Turn } | { ok: false; issues: ValidationIssue[] };
  /** What the trained model reads before its turn. */
  observe(prepared: Prepared): EnvironmentObservation;
  /** The reward and outcome of a finished negotiation; `invalid` when the trained side's text ended it. */
  finish(result: Result, start: Start, invalid: ValidationIssue[] | undefined): EpisodeEnd;
  /** The template the final observation names. */
  template: string;
  /** The scenario or listing an episode plays, for `state()`. */
  scenarioId(start: Start): string | undefined;
  /** The record's game-specific fields: `scenarioId`, the negotiation's `seed`, its result or session. */
  recordFields(start: Start, result: Result, episodeSeed: number): Record<string, unknown>;
}

type Stop<Prepared, Result> = { kind: 'turn'; prepared: Prepared } | { kind: 'end'; result: Result };

interface Episode<Input, Turn, Result, Start, Prepared> {
  id: string | null;
  seed: number;
  start: Start;
  handoff: TurnHandoff<Input, Turn, Result>;
  controller: AbortController;
  stop: Stop<Prepared, Result> | undefined;
  steps: number;
  rawTexts: string[];
  invalid?: ValidationIssue[];
  busy: boolean;
  reward?: number | null;
}

/** Who plays the episodes, as `state()` and the run file name them. */
export interface EpisodeParties {
  env: string;
  role: Role;
  opponentName: string;
  armName: string;
  rewards: ReturnType<typeof resolveEpisodeRewards>;
}

/**
 * One episode at a time of any game: the negotiation runs as the same async code tournaments and
 * sessions run, and its call for the trained side's turn parks in a `TurnHandoff` until `step(text)`.
 * Both environments (best-offer, multi-issue) are this core with their game.
 */
export class EpisodeCore<Input, Turn, Result, Start, Prepared> implements EpisodeProtocol {
  private episode: Episode<Input, Turn, Result, Start, Prepared> | undefined;
  private resets = 0;

  constructor(
    private readonly game: EpisodeGame<Input, Turn, Result, Start, Prepared>,
    private readonly parties: EpisodeParties,
  ) {}

  async reset(options: EnvironmentResetOptions = {}): Promise<EnvironmentStepResult> {
    const seed = options.seed ?? this.resets;
    if (!Number.isSafeInteger(seed) || seed < 0)
      throw new InvalidInputError({
        subject: 'reset',
        issues: [{ path: 'seed', message: 'must be a non-negative integer' }],
      });
    this.resets++;
    this.close();
    const handoff = new TurnHandoff<Input, Turn, Result>();
    const controller = new AbortController();
    const { start, run } = this.game.start({
      seed,
      episodeId: options.episodeId,
      trained: (input, signal) => handoff.requestTurn(input, signal),
      signal: controller.signal,
    });
    run.then(
      (result) => handoff.end(result),
      (error: unknown) => handoff.crash(error),
    );
    const episode: Episode<Input, Turn, Result, Start, Prepared> = {
      id: options.episodeId ?? null,
      seed,
      start,
      handoff,
      controller,
      stop: undefined,
      steps: 0,
      rawTexts: [],
      busy: true,
    };
    this.episode = episode;
    return this.whileBusy(episode);
  }

  async step(text: string): Promise<EnvironmentStepResult> {
    const episode = this.episode;
    if (!episode) throw new EnvironmentStateError('no episode: call reset before step');
    if (episode.busy)
      throw new EnvironmentStateError('a reset or step of this episode is still running: await it first');
    if (!episode.stop) throw new EnvironmentStateError('no episode: call reset before step');
    if (episode.stop.kind === 'end')
      throw new EnvironmentStateError('the episode is done: call reset to start the next one');
    if (typeof text !== 'string')
      throw new InvalidInputError({
        subject: 'step',
        issues: [{ path: 'text', message: "must be the model's raw output (a string)" }],
      });
    const prepared = episode.stop.prepared;
    episode.busy = true;
    episode.steps++;
    episode.rawTexts.push(text);
    const checked = this.game.check(text, prepared);
    if (checked.ok) episode.handoff.answer(checked.turn);
    else {
      episode.invalid = checked.issues;
      // The same failure an LLM's invalid output is in a tournament or a session: the negotiation
      // ends with reason `error`, failed by the trained side, and the game gives the penalty.
      episode.handoff.fail(
        new InvalidModelOutputError({ rawTexts: [text], issues: checked.issues, attempts: 1 }),
      );
    }
    return this.whileBusy(episode);
  }

  state(): EnvironmentState {
    const episode = this.episode;
    const scenarioId = episode ? this.game.scenarioId(episode.start) : undefined;
    return {
      episode_id: episode?.id ?? null,
      step_count: episode?.steps ?? 0,
      env: this.parties.env,
      seed: episode?.seed ?? null,
      done: episode?.stop?.kind === 'end',
      ...(episode?.reward !== undefined ? { reward: episode.reward } : {}),
      ...(scenarioId !== undefined ? { scenario_id: scenarioId } : {}),
      opponent: this.parties.opponentName,
      role: this.parties.role,
      raw_texts: episode ? [...episode.rawTexts] : [],
    };
  }

  record(): EpisodeRecord | null {
    const episode = this.episode;
    if (episode?.stop?.kind !== 'end') return null;
    return {
      type: 'match',
      index: 0,
      arm: this.parties.armName,
      armRole: this.parties.role,
      opponent: this.parties.opponentName,
      ...this.game.recordFields(episode.start, episode.stop.result, episode.seed),
      episode: {
        env: this.parties.env,
        id: episode.id,
        seed: episode.seed,
        reward: episode.reward ?? null,
        rawTexts: episode.rawTexts,
      },
    };
  }

  close(): void {
    const episode = this.episode;
    if (episode && episode.stop?.kind !== 'end')
      episode.controller.abort(new EnvironmentStateError('episode abandoned'));
  }

  private async whileBusy(
    episode: Episode<Input, Turn, Result, Start, Prepared>,
  ): Promise<EnvironmentStepResult> {
    try {
      return await this.advance(episode);
    } finally {
      episode.busy = false;
    }
  }

  private async advance(
    episode: Episode<Input, Turn, Result, Start, Prepared>,
  ): Promise<EnvironmentStepResult> {
    const stop = await episode.handoff.next();
    if (stop.kind === 'crash') {
      episode.stop = { kind: 'end', result: this.game.crashResult(stop.error, episode.start) };
      throw stop.error;
    }
    if (stop.kind === 'turn') {
      const prepared = this.game.prepare(stop.input);
      episode.stop = { kind: 'turn', prepared };
      return {
        observation: this.game.observe(prepared),
        reward: episode.steps === 0 ? 0 : this.parties.rewards.step,
        done: false,
      };
    }
    episode.stop = { kind: 'end', result: stop.result };
    const { reward, info, turns } = this.game.finish(stop.result, episode.start, episode.invalid);
    episode.reward = reward;
    return {
      observation: {
        messages: [],
        prompt: '',
        template: this.game.template,
        legal_moves: [],
        schema: null,
        role: this.parties.role,
        turn: turns,
        info,
      },
      reward,
      done: true,
    };
  }
}

/** The part of `Environment` the episode core plays: everything but the run file's header. */
export type EpisodeProtocol = Pick<Environment, 'reset' | 'step' | 'state' | 'record' | 'close'>;

/** An environment whose episodes an `EpisodeCore` plays: the protocol, handed to the core. */
export abstract class GameEnvironment implements Environment {
  /** @internal */
  protected abstract readonly core: EpisodeProtocol;

  constructor(
    /** The environment's name (`multi-issue-seller`, ...). */
    readonly name: string,
    /** The side the trained model plays. */
    readonly role: Role,
  ) {}

  reset(options?: EnvironmentResetOptions): Promise<EnvironmentStepResult> {
    return this.core.reset(options);
  }

  step(text: string): Promise<EnvironmentStepResult> {
    return this.core.step(text);
  }

  state(): EnvironmentState {
    return this.core.state();
  }

  record(): EpisodeRecord | null {
    return this.core.record();
  }

  close(): void {
    this.core.close();
  }

  abstract runHeader(): EpisodeRunHeader;

  /**
   * The core that plays `game` for this environment's side, against the opponent the options name.
   * @internal
   */
  protected playing<Input, Turn, Result, Start, Prepared>(
    game: EpisodeGame<Input, Turn, Result, Start, Prepared>,
    options: { opponentName: string; armName?: string },
    rewards: EpisodeParties['rewards'],
  ): EpisodeCore<Input, Turn, Result, Start, Prepared> {
    return new EpisodeCore(game, {
      env: this.name,
      role: this.role,
      opponentName: options.opponentName,
      armName: options.armName ?? 'policy',
      rewards,
    });
  }
}
