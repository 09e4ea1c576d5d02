// For RL trainers: haggle's negotiations as an environment. In process with createEnvironment, then the
// same environment over OpenEnv's WebSocket protocol, as `haggle env serve` serves it to TRL's GRPOTrainer.
// Run: npx tsx examples/training-env.ts
import { connectEnvironment, createEnvironment, EnvironmentServer } from 'haggle/env';
import { generateSuite, utilityConceder } from 'haggle/evaluation';

const suite = generateSuite({ seed: 2026, scenarios: 8, seedsPerPair: 4 });
const options = {
  env: 'multi-issue-seller' as const,
  suite,
  opponent: utilityConceder(),
  opponentName: 'utility-conceder',
};

// Your model goes here: it reads `observation.prompt` (or `messages`) and writes raw text. This stand-in
// opens at the top of every range and concedes a tenth of it per turn, accepting from the fifth turn.
function policy(observation: Record<string, unknown>): string {
  const turn = observation.turn as number;
  const moves = (observation.legal_moves as { action: string }[]).map((m) => m.action);
  if (turn >= 4 && moves.includes('accept')) return '{"action":"accept","offer":null,"message":"Deal."}';
  type Issue = { enum?: string[]; type?: string; minimum?: number; maximum?: number };
  const schema = observation.schema as {
    oneOf: { properties: { action: { const?: string }; offer: { properties?: Record<string, Issue> } } }[];
  };
  const issues =
    schema.oneOf.find((b) => b.properties.action.const === 'offer')?.properties.offer.properties ?? {};
  const offer: Record<string, number | string> = {};
  for (const [name, issue] of Object.entries(issues)) {
    const top = issue.maximum ?? 0;
    const value = top - (top - (issue.minimum ?? 0)) * Math.min(1, turn / 10);
    offer[name] = issue.enum
      ? (issue.enum[0] as string)
      : issue.type === 'integer'
        ? Math.round(value)
        : Math.round(value * 100) / 100;
  }
  return JSON.stringify({ action: 'offer', offer, message: 'Here is my offer.' });
}

// 1. In process: a GRPO group is the same seed played several times (here by the same policy).
const env = createEnvironment(options);
let result = await env.reset({ seed: 3 });
console.log(
  `episode 3: ${env.state().scenario_id}, legal moves ${result.observation.legal_moves.map((m) => m.action).join(', ')}`,
);
while (!result.done)
  result = await env.step(policy(result.observation as unknown as Record<string, unknown>));
console.log(`in-process reward ${result.reward?.toFixed(3)} (${result.observation.info.end_reason})`);

// 2. Over the wire: what `haggle env serve --env multi-issue-seller --suite suite.json --opponent
// utility-conceder` serves; Python trainers connect with OpenEnv's GenericEnvClient.
const server = new EnvironmentServer({
  createEnvironment: () => createEnvironment(options),
  name: 'multi-issue-seller',
  description: 'a seller against utility-conceder',
});
const url = await server.listen({ port: 0 });
const client = await connectEnvironment(url);
let remote = await client.reset({ seed: 3 });
while (!remote.done) remote = await client.step({ text: policy(remote.observation) });
console.log(
  `over WebSocket reward ${remote.reward?.toFixed(3)}: ${remote.reward === result.reward ? 'the same' : 'DIFFERENT'}`,
);
const bad = await client.reset({ seed: 4 }).then(() => client.step({ text: 'I would take $40.' }));
console.log(
  `invalid action: done ${bad.done}, reward ${bad.reward}, ${(bad.observation.info as { invalid_action: { issues: { message: string }[] } }).invalid_action.issues[0]?.message}`,
);
client.close();
await server.close();

// 3. `haggle env serve --observation minimal`: a trainer that applies its own chat template to `messages`
// need not receive `prompt` (the same conversation, rendered) too; rewards are unchanged.
const lean = new EnvironmentServer({
  createEnvironment: () => createEnvironment(options),
  name: 'multi-issue-seller',
  description: 'a seller against utility-conceder, minimal observations',
  observation: 'minimal',
});
const leanClient = await connectEnvironment(await lean.listen({ port: 0 }));
let leanResult = await leanClient.reset({ seed: 3 });
console.log(`minimal observation: ${Object.keys(leanResult.observation).join(', ')}`);
while (!leanResult.done) leanResult = await leanClient.step({ text: policy(leanResult.observation) });
console.log(`minimal reward ${leanResult.reward === result.reward ? 'the same' : 'DIFFERENT'}`);
leanClient.close();
await lean.close();
