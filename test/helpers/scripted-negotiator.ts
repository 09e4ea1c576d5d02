import type {
  Negotiator,
  NegotiatorDescription,
  PredictInput,
  PredictOptions,
  Turn,
} from '../../src/index.js';

/**
 * A negotiator for tests that plays a fixed script of turns (or functions of the input), and records
 * what it was asked. It stands in for a user's own negotiator, not for anything haggle ships.
 */
export class ScriptedNegotiator implements Negotiator {
  readonly inputs: PredictInput[] = [];
  readonly seeds: (number | undefined)[] = [];
  private position = 0;

  constructor(
    private readonly script: Array<Turn | ((input: PredictInput) => Turn | Promise<Turn>)>,
    private readonly name = 'scripted',
  ) {}

  async predict(input: PredictInput, options?: PredictOptions): Promise<Turn> {
    this.inputs.push(input);
    this.seeds.push(options?.seed);
    const step = this.script[this.position++];
    if (step === undefined) throw new Error(`${this.name} ran out of scripted turns`);
    return typeof step === 'function' ? step(input) : step;
  }

  describe(): NegotiatorDescription {
    return { kind: this.name };
  }
}
