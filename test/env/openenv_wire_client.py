"""A Python client speaking OpenEnv's WebSocket protocol as GenericEnvClient speaks it.

Written for haggle's tests from a reading of OpenEnv's src/openenv/core/env_client.py and
generic_client.py (meta-pytorch/OpenEnv 685de41): the messages are built and parsed as there
(json.dumps of {"type", "data"}; reset's data is its keyword arguments; step's data is the action
dict; a result is observation / reward / done read with .get; an "error" answer raises). OpenEnv's
client runs on the `websockets` package, which is not installed on haggle's machines, so the
WebSocket itself (RFC 6455, masked client frames) is done here with the standard library only,
offering permessage-deflate in the handshake as `websockets` does (the server must decline it).

Usage: python3 openenv_wire_client.py BASE_URL EPISODES
Plays EPISODES episodes (seed 0..EPISODES-1) of a multi-issue environment with a fixed policy and
prints one JSON line per episode: {"seed", "reward", "done", "steps", "texts", "state"}.
"""

import base64
import hashlib
import json
import os
import socket
import struct
import sys
from urllib.parse import urlparse

WS_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


class WireSocket:
    """The client end of one WebSocket connection: text messages out (masked), text messages in."""

    def __init__(self, ws_url: str) -> None:
        url = urlparse(ws_url)
        self.sock = socket.create_connection((url.hostname, url.port or 80), timeout=30)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        key = base64.b64encode(os.urandom(16)).decode()
        request = (
            f"GET {url.path} HTTP/1.1\r\nHost: {url.hostname}:{url.port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
            "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n"
            "User-Agent: haggle-test-openenv-wire\r\n\r\n"
        )
        self.sock.sendall(request.encode())
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise ConnectionError("closed during the handshake")
            self.buffer += chunk
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        lines = head.decode().split("\r\n")
        if not lines[0].startswith("HTTP/1.1 101"):
            raise ConnectionError(f"handshake refused: {lines[0]}")
        headers = {k.strip().lower(): v.strip() for k, v in (line.split(":", 1) for line in lines[1:])}
        expected = base64.b64encode(hashlib.sha1((key + WS_GUID).encode()).digest()).decode()
        if headers.get("sec-websocket-accept") != expected:
            raise ConnectionError("wrong Sec-WebSocket-Accept")
        if "sec-websocket-extensions" in headers:
            # We cannot inflate; websockets could, but then frames would be compressed (RSV1).
            raise ConnectionError(f"server accepted an extension: {headers['sec-websocket-extensions']}")

    def _read(self, n: int) -> bytes:
        while len(self.buffer) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("connection closed")
            self.buffer += chunk
        out, self.buffer = self.buffer[:n], self.buffer[n:]
        return out

    def _frame(self, opcode: int, payload: bytes) -> None:
        mask = os.urandom(4)
        n = len(payload)
        if n < 126:
            head = struct.pack("!BB", 0x80 | opcode, 0x80 | n)
        elif n < 65536:
            head = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, n)
        else:
            head = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, n)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(head + mask + masked)

    def send(self, text: str) -> None:
        self._frame(0x1, text.encode())

    def recv(self) -> str:
        parts = []
        while True:
            b0, b1 = self._read(2)
            if b0 & 0x70:
                raise ConnectionError("a reserved bit is set (no extension was agreed)")
            if b1 & 0x80:
                raise ConnectionError("a server frame is masked")
            n = b1 & 0x7F
            if n == 126:
                (n,) = struct.unpack("!H", self._read(2))
            elif n == 127:
                (n,) = struct.unpack("!Q", self._read(8))
            payload = self._read(n)
            opcode = b0 & 0x0F
            if opcode == 0x9:
                self._frame(0xA, payload)
                continue
            if opcode == 0x8:
                code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else 1005
                raise ConnectionError(f"connection closed ({code})")
            if opcode in (0x1, 0x0):
                parts.append(payload)
                if b0 & 0x80:
                    return b"".join(parts).decode()
                continue
            raise ConnectionError(f"unexpected opcode {opcode}")

    def close(self) -> None:
        try:
            self._frame(0x8, struct.pack("!H", 1000))
        finally:
            self.sock.close()


class GenericWireClient:
    """GenericEnvClient's messages: reset(**kwargs), step(action dict), state(), close()."""

    def __init__(self, base_url: str) -> None:
        ws_url = base_url.rstrip("/")
        if ws_url.startswith("http://"):
            ws_url = "ws://" + ws_url[7:]
        self.ws = WireSocket(f"{ws_url}/ws")

    def _send_and_receive(self, message: dict) -> dict:
        self.ws.send(json.dumps(message))
        response = json.loads(self.ws.recv())
        if response.get("type") == "error":
            error = response.get("data", {})
            raise RuntimeError(
                f"Server error: {error.get('message', 'Unknown error')} (code: {error.get('code', 'UNKNOWN')})"
            )
        return response

    @staticmethod
    def _parse_result(payload: dict) -> dict:
        return {
            "observation": payload.get("observation", {}),
            "reward": payload.get("reward"),
            "done": payload.get("done", False),
        }

    def reset(self, **kwargs) -> dict:
        return self._parse_result(self._send_and_receive({"type": "reset", "data": kwargs}).get("data", {}))

    def step(self, action: dict) -> dict:
        return self._parse_result(self._send_and_receive({"type": "step", "data": dict(action)}).get("data", {}))

    def state(self) -> dict:
        return self._send_and_receive({"type": "state"}).get("data", {})

    def close(self) -> None:
        try:
            self.ws.send(json.dumps({"type": "close"}))
        finally:
            self.ws.close()


def policy(observation: dict) -> str:
    """Open at the top of every numeric issue, concede a tenth per turn, accept from the fifth turn."""
    turn = observation["turn"]
    if turn >= 4 and any(m["action"] == "accept" for m in observation["legal_moves"]):
        return json.dumps({"action": "accept", "offer": None, "message": "Agreed."})
    offer_branch = next(b for b in observation["schema"]["oneOf"] if b["properties"]["action"].get("const") == "offer")
    values = {}
    for name, issue in offer_branch["properties"]["offer"]["properties"].items():
        if "enum" in issue:
            values[name] = issue["enum"][0]
        else:
            low, high = issue.get("minimum", 0), issue.get("maximum", 0)
            value = high - (high - low) * min(1, turn / 10)
            values[name] = round(value) if issue.get("type") == "integer" else round(value, 2)
    return json.dumps({"action": "offer", "offer": values, "message": "My best offer."})


def main() -> None:
    base_url, episodes = sys.argv[1], int(sys.argv[2])
    client = GenericWireClient(base_url)
    for seed in range(episodes):
        result = client.reset(seed=seed, episode_id=f"py-{seed}")
        texts = []
        while not result["done"]:
            text = policy(result["observation"])
            texts.append(text)
            result = client.step({"text": text})
        print(
            json.dumps(
                {
                    "seed": seed,
                    "reward": result["reward"],
                    "done": result["done"],
                    "steps": len(texts),
                    "texts": texts,
                    "state": client.state(),
                }
            ),
            flush=True,
        )
    client.close()


if __name__ == "__main__":
    main()
