"""Runs the client block of docs/training.md's Python recipe as written, against a haggle env serve.

Usage: python3 training_recipe_driver.py BLOCK_FILE BASE_URL EPISODES
The block (its imports, ENV_URL, play) is executed unchanged; only ENV_URL is then pointed at the
server the test started (the block names port 8001). `generate` stands in for the trainer's sampler:
from the observation's schema alone, as the recipe gives it, it opens at the top of every numeric issue,
concedes a tenth per turn and accepts from the fifth turn. Prints one JSON line per episode:
{"seed", "steps", "prompts", "completions", "reward"}.
"""

import json
import sys


def make_generate():
    calls = {"n": 0}

    def generate(prompt, schema):
        turn = calls["n"]
        calls["n"] += 1
        branches = {b["properties"]["action"].get("const"): b for b in schema["oneOf"]}
        if turn >= 4 and "accept" in branches:
            return json.dumps({"action": "accept", "offer": None, "message": "Agreed."})
        values = {}
        for name, issue in branches["offer"]["properties"]["offer"]["properties"].items():
            if "enum" in issue:
                values[name] = issue["enum"][0]
            else:
                low, high = issue.get("minimum", 0), issue.get("maximum", 0)
                value = high - (high - low) * min(1, turn / 10)
                values[name] = round(value) if issue.get("type") == "integer" else round(value, 2)
        return json.dumps({"action": "offer", "offer": values, "message": "My best offer."})

    return generate


def main() -> None:
    block_file, base_url, episodes = sys.argv[1], sys.argv[2], int(sys.argv[3])
    with open(block_file, encoding="utf-8") as f:
        code = f.read()
    recipe = {"__name__": "recipe"}
    exec(compile(code, "docs/training.md (client block)", "exec"), recipe)
    recipe["ENV_URL"] = base_url
    for seed in range(episodes):
        prompts, completions, reward = recipe["play"](make_generate(), seed)
        print(
            json.dumps(
                {
                    "seed": seed,
                    "steps": len(completions),
                    "prompts": prompts,
                    "completions": completions,
                    "reward": reward,
                }
            ),
            flush=True,
        )


if __name__ == "__main__":
    main()
