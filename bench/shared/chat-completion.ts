/**
 * The body of a one-choice OpenAI chat completion whose message is `turn` as JSON: what the benches'
 * loopback stand-ins for a model server answer, so the client under test parses a real server's shape.
 */
export function chatCompletionBody(
  id: string,
  turn: unknown,
  usage: { prompt_tokens: number; completion_tokens: number },
): string {
  return JSON.stringify({
    id,
    object: 'chat.completion',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: JSON.stringify(turn) },
        finish_reason: 'stop',
      },
    ],
    usage,
  });
}
