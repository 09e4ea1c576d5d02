/**
 * What a researcher says about one arm or opponent, beyond its negotiator: the facts the preprint's
 * claims group by (a model's family, whether it was among the opponents a policy trained against, which
 * arm a trained policy started from). Recorded in the tournament header so a run file can be reanalysed
 * on its own (`loadTournament`).
 */
export interface ParticipantLabel {
  /** 'baseline' for a programmatic negotiator, 'llm' for a model behind a backend. */
  kind?: 'baseline' | 'llm';
  /** Model family, free text chosen by the researcher (for example 'qwen3' or 'gpt'). */
  family?: string;
  /**
   * Whether this opponent shares a model family with the arms' training pool (the opponents they met in
   * training). Not that it was met itself: the preprint's two evaluation buyers were both never seen in
   * training, and one shares a family with the pool. Mark a buyer that was in the pool itself `true` too,
   * and say so in the experiment's name or notes.
   */
  trainingPool?: boolean;
  /** For a trained arm: the name of the arm it was trained from, so gains over the base can be computed. */
  base?: string;
}

/** Labels of a tournament's arms and opponents, by name, recorded in its header. */
export interface ParticipantLabels {
  arms?: Readonly<Record<string, ParticipantLabel>>;
  opponents?: Readonly<Record<string, ParticipantLabel>>;
}
