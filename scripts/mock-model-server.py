#!/usr/bin/env python3
"""A loopback mock model server for capturing what AI coding agents send.

It speaks just enough of each model API for one non-interactive run of a client:

  * Anthropic Messages   POST /v1/messages (SSE or JSON), /v1/messages/count_tokens, GET /v1/models
  * OpenAI Responses     POST /v1/responses (SSE), GET /v1/models
  * Gemini               POST .../models/M:generateContent, :streamGenerateContent (?alt=sse),
                         :countTokens, :embedContent, :batchEmbedContents

Every request is recorded as one JSON line (method, path, query, headers without secrets, body)
in the log file. Any other path is answered harmlessly (200 with an empty JSON object) and
recorded too, so that an unexpected call shows up in the log.

Scripted mode: a list of steps, one per model turn, taken in order; the step for a request is
the number of tool results its conversation already holds. Steps come from --steps (or
MOCK_STEPS), a JSON list whose items are either {"skill": NAME, "args": TEXT} (a call of the
agent's skill tool: a declared tool named one of --skill-tools, default Skill, skill,
activate_skill; the name goes in the argument the tool schema requires first, args in an "args"
property when the schema has one) or {"tool": NAME, "input": {...}} (a call of any declared
tool), or from --skills NAME[,NAME...] (or MOCK_SKILLS), short for skill steps. So the request
after a skill call shows what loading the skill injects. A request that does not declare the
step's tool, and every request once the steps are used up, is answered with the plain text "ok"
and the end of the turn.

It binds 127.0.0.1 and nothing else. The port comes from --port, else MOCK_PORT, else 0 (a free
port); the port taken is printed on stdout and written to --port-file when given.

Python 3 standard library only. One handler class per API: a new API is one more class in
HANDLERS.
"""

import argparse
import base64
import gzip
import json
import os
import sys
import threading
import time
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

BIND_ADDRESS = "127.0.0.1"

SECRET_HEADERS = {
    "authorization",
    "proxy-authorization",
    "x-api-key",
    "x-goog-api-key",
    "api-key",
    "cookie",
    "chatgpt-account-id",
    "openai-organization",
    "openai-project",
}


class Config:
    """What the server was told on its command line or environment."""

    def __init__(self, steps, skill_tools, text, log_path):
        self.steps = steps
        self.skill_tools = skill_tools
        self.text = text
        self.log_path = log_path
        self.lock = threading.Lock()
        self.seq = 0

    def next_seq(self):
        with self.lock:
            self.seq += 1
            return self.seq

    def record(self, entry):
        line = json.dumps(entry, ensure_ascii=False, sort_keys=False)
        with self.lock:
            with open(self.log_path, "a", encoding="utf-8") as f:
                f.write(line + "\n")
                f.flush()


def schema_argument(schema):
    """The argument a skill tool takes its skill name in: first required property, else first."""
    if not isinstance(schema, dict):
        return "skill"
    required = schema.get("required") or []
    if required:
        return required[0]
    props = schema.get("properties") or {}
    for key in props:
        return key
    return "skill"


class Reply:
    """One answer: either text or a call of a tool with one string argument."""

    def __init__(self, text=None, tool=None, tool_input=None):
        self.text = text
        self.tool = tool
        self.input = tool_input

    @property
    def is_tool(self):
        return self.tool is not None


# --------------------------------------------------------------------------------------------
# API handlers. Each has: matches(method, path) -> bool, and handle(req) which writes the answer.
# req is the BaseHTTPRequestHandler with .body (parsed JSON or None) and .cfg.
# --------------------------------------------------------------------------------------------


class ApiHandler:
    name = "base"

    def matches(self, method, path):
        raise NotImplementedError

    def handle(self, req):
        raise NotImplementedError

    # Shared helpers.
    def pick(self, cfg, tools, results_so_far):
        """Decide the reply given the declared tools {name: schema} and the tool results so far."""
        if results_so_far < len(cfg.steps):
            step = cfg.steps[results_so_far]
            if "skill" in step:
                for name in cfg.skill_tools:
                    if name in tools:
                        schema = tools[name] or {}
                        tool_input = {schema_argument(schema): step["skill"]}
                        if step.get("args") is not None and "args" in (schema.get("properties") or {}):
                            tool_input["args"] = step["args"]
                        return Reply(tool=name, tool_input=tool_input)
            elif step.get("tool") in tools:
                return Reply(tool=step["tool"], tool_input=step.get("input") or {})
        return Reply(text=cfg.text)


class AnthropicMessages(ApiHandler):
    """Anthropic Messages API (Claude Code, opencode's anthropic provider)."""

    name = "anthropic"

    def matches(self, method, path):
        return path.startswith("/v1/messages") or (method == "GET" and path.startswith("/v1/models"))

    def handle(self, req):
        path = req.split_path
        if req.command == "GET":
            return req.send_json(
                {
                    "data": [
                        {
                            "type": "model",
                            "id": "claude-mock",
                            "display_name": "Mock",
                            "created_at": "2025-01-01T00:00:00Z",
                        }
                    ],
                    "has_more": False,
                    "first_id": "claude-mock",
                    "last_id": "claude-mock",
                }
            )
        if path.endswith("/count_tokens"):
            size = len(json.dumps(req.body or {}))
            return req.send_json({"input_tokens": max(1, size // 4)})
        body = req.body or {}
        tools = {}
        for t in body.get("tools") or []:
            if isinstance(t, dict) and "name" in t:
                tools[t["name"]] = t.get("input_schema")
        results = 0
        for m in body.get("messages") or []:
            content = m.get("content")
            if isinstance(content, list):
                results += sum(
                    1 for c in content if isinstance(c, dict) and c.get("type") == "tool_result"
                )
        reply = self.pick(req.cfg, tools, results)
        model = body.get("model", "claude-mock")
        seq = req.seq
        msg_id = "msg_mock%04d" % seq
        if reply.is_tool:
            block = {"type": "tool_use", "id": "toolu_mock%04d" % seq, "name": reply.tool, "input": {}}
            delta = {"type": "input_json_delta", "partial_json": json.dumps(reply.input)}
            stop = "tool_use"
            full_block = dict(block, input=reply.input)
        else:
            block = {"type": "text", "text": ""}
            delta = {"type": "text_delta", "text": reply.text}
            stop = "end_turn"
            full_block = {"type": "text", "text": reply.text}
        usage = {
            "input_tokens": 1,
            "output_tokens": 1,
            "cache_creation_input_tokens": 0,
            "cache_read_input_tokens": 0,
        }
        if not body.get("stream"):
            return req.send_json(
                {
                    "id": msg_id,
                    "type": "message",
                    "role": "assistant",
                    "model": model,
                    "content": [full_block],
                    "stop_reason": stop,
                    "stop_sequence": None,
                    "usage": usage,
                }
            )
        events = [
            (
                "message_start",
                {
                    "type": "message_start",
                    "message": {
                        "id": msg_id,
                        "type": "message",
                        "role": "assistant",
                        "model": model,
                        "content": [],
                        "stop_reason": None,
                        "stop_sequence": None,
                        "usage": usage,
                    },
                },
            ),
            ("content_block_start", {"type": "content_block_start", "index": 0, "content_block": block}),
            ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta}),
            ("content_block_stop", {"type": "content_block_stop", "index": 0}),
            (
                "message_delta",
                {
                    "type": "message_delta",
                    "delta": {"stop_reason": stop, "stop_sequence": None},
                    "usage": {"output_tokens": 1},
                },
            ),
            ("message_stop", {"type": "message_stop"}),
        ]
        req.send_sse(events)


class OpenAIResponses(ApiHandler):
    """OpenAI Responses API (Codex with wire_api = "responses")."""

    name = "openai-responses"

    def matches(self, method, path):
        return path.startswith("/v1/responses") or path.startswith("/responses") or (
            method == "GET" and (path.startswith("/v1/models") or path == "/models")
        )

    def handle(self, req):
        if req.command == "GET":
            return req.send_json({"object": "list", "data": [], "models": []})
        body = req.body or {}
        tools = {}
        for t in body.get("tools") or []:
            if isinstance(t, dict) and t.get("type") == "function" and "name" in t:
                tools[t["name"]] = t.get("parameters")
        results = 0
        for item in body.get("input") or []:
            if isinstance(item, dict) and item.get("type") == "function_call_output":
                results += 1
        reply = self.pick(req.cfg, tools, results)
        seq = req.seq
        resp_id = "resp_mock%04d" % seq
        if reply.is_tool:
            item = {
                "type": "function_call",
                "id": "fc_mock%04d" % seq,
                "call_id": "call_mock%04d" % seq,
                "name": reply.tool,
                "arguments": json.dumps(reply.input),
                "status": "completed",
            }
        else:
            item = {
                "type": "message",
                "id": "msg_mock%04d" % seq,
                "role": "assistant",
                "status": "completed",
                "content": [{"type": "output_text", "text": reply.text, "annotations": []}],
            }
        usage = {
            "input_tokens": 1,
            "input_tokens_details": {"cached_tokens": 0},
            "output_tokens": 1,
            "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": 2,
        }
        response = {
            "id": resp_id,
            "object": "response",
            "created_at": 0,
            "status": "in_progress",
            "model": body.get("model", "mock"),
            "output": [],
        }
        done = dict(response, status="completed", output=[item], usage=usage)
        if not body.get("stream"):
            return req.send_json(done)
        events = [
            ("response.created", {"type": "response.created", "sequence_number": 0, "response": response}),
            (
                "response.output_item.added",
                {
                    "type": "response.output_item.added",
                    "sequence_number": 1,
                    "output_index": 0,
                    "item": dict(item, status="in_progress"),
                },
            ),
        ]
        if not reply.is_tool:
            events.append(
                (
                    "response.output_text.delta",
                    {
                        "type": "response.output_text.delta",
                        "sequence_number": 2,
                        "item_id": item["id"],
                        "output_index": 0,
                        "content_index": 0,
                        "delta": reply.text,
                    },
                )
            )
        events += [
            (
                "response.output_item.done",
                {"type": "response.output_item.done", "sequence_number": 3, "output_index": 0, "item": item},
            ),
            ("response.completed", {"type": "response.completed", "sequence_number": 4, "response": done}),
        ]
        req.send_sse(events)


class Gemini(ApiHandler):
    """Gemini API (Gemini CLI with an API key and GOOGLE_GEMINI_BASE_URL)."""

    name = "gemini"

    def matches(self, method, path):
        return ":generateContent" in path or ":streamGenerateContent" in path or (
            ":countTokens" in path or ":embedContent" in path or ":batchEmbedContents" in path
        ) or (method == "GET" and "/models" in path)

    def handle(self, req):
        path = req.split_path
        body = req.body or {}
        if req.command == "GET":
            return req.send_json({"models": []})
        if ":countTokens" in path:
            return req.send_json({"totalTokens": max(1, len(json.dumps(body)) // 4)})
        if ":batchEmbedContents" in path:
            n = len(body.get("requests") or [])
            return req.send_json({"embeddings": [{"values": [0.0] * 8} for _ in range(n)]})
        if ":embedContent" in path:
            return req.send_json({"embedding": {"values": [0.0] * 8}})
        tools = {}
        for t in body.get("tools") or []:
            for fd in (t or {}).get("functionDeclarations") or []:
                schema = fd.get("parametersJsonSchema") or fd.get("parameters")
                tools[fd.get("name")] = schema
        results = 0
        for c in body.get("contents") or []:
            for p in c.get("parts") or []:
                if isinstance(p, dict) and "functionResponse" in p:
                    results += 1
        reply = self.pick(req.cfg, tools, results)
        if reply.is_tool:
            part = {"functionCall": {"name": reply.tool, "args": reply.input}}
        else:
            part = {"text": reply.text}
        # A request that asks for JSON output (the CLI's routers and checks) gets a harmless
        # JSON text instead of "ok".
        gen = body.get("generationConfig") or {}
        if not reply.is_tool and gen.get("responseMimeType") == "application/json":
            part = {"text": self.json_answer(gen)}
        answer = {
            "candidates": [
                {"content": {"role": "model", "parts": [part]}, "finishReason": "STOP", "index": 0}
            ],
            "usageMetadata": {"promptTokenCount": 1, "candidatesTokenCount": 1, "totalTokenCount": 2},
            "modelVersion": path.split("/models/")[-1].split(":")[0],
            "responseId": "mock%04d" % req.seq,
        }
        if ":streamGenerateContent" in path:
            if req.query.get("alt", [""])[0] == "sse":
                return req.send_sse([(None, answer)])
            return req.send_json([answer])
        return req.send_json(answer)

    @staticmethod
    def json_answer(gen):
        """A small JSON value that fits the request's schema, as far as a mock can tell."""
        schema = gen.get("responseJsonSchema") or gen.get("responseSchema") or {}
        return json.dumps(Gemini.fill(schema))

    @staticmethod
    def fill(schema):
        t = str(schema.get("type", "object")).lower()
        if "enum" in schema and schema["enum"]:
            return schema["enum"][0]
        if t == "object":
            return {k: Gemini.fill(v) for k, v in (schema.get("properties") or {}).items()}
        if t == "array":
            return []
        if t in ("number", "integer"):
            return schema.get("minimum", 1)
        if t == "boolean":
            return False
        return "ok"


HANDLERS = [AnthropicMessages(), OpenAIResponses(), Gemini()]


def decode_body(raw, encoding):
    """The request body as text when it can be decoded; (text, note)."""
    enc = (encoding or "").lower()
    try:
        if enc == "gzip":
            raw = gzip.decompress(raw)
        elif enc == "deflate":
            raw = zlib.decompress(raw)
        elif enc and enc != "identity":
            return None, "undecoded content-encoding %s" % enc
    except Exception as e:  # noqa: BLE001 - record and go on
        return None, "decode error: %s" % e
    try:
        return raw.decode("utf-8"), None
    except UnicodeDecodeError:
        return None, "not utf-8"


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "mock-model-server/1"
    cfg = None  # set by main

    def log_message(self, fmt, *args):  # quiet: the JSONL log is the record
        pass

    def _read(self):
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            return self.rfile.read(length)
        if (self.headers.get("Transfer-Encoding") or "").lower() == "chunked":
            chunks = []
            while True:
                size_line = self.rfile.readline().strip()
                size = int(size_line.split(b";")[0] or b"0", 16)
                if size == 0:
                    self.rfile.readline()
                    break
                chunks.append(self.rfile.read(size))
                self.rfile.readline()
            return b"".join(chunks)
        return b""

    def _dispatch(self):
        self.seq = self.cfg.next_seq()
        parts = urlsplit(self.path)
        self.split_path = parts.path
        self.query = parse_qs(parts.query)
        raw = self._read()
        text, note = decode_body(raw, self.headers.get("Content-Encoding"))
        self.body = None
        body_field = None
        if text is not None and text.strip():
            try:
                self.body = json.loads(text)
                body_field = self.body
            except ValueError:
                body_field = text
        elif raw:
            body_field = {"base64": base64.b64encode(raw).decode("ascii"), "note": note}
        handler = next((h for h in HANDLERS if h.matches(self.command, self.split_path)), None)
        headers = {k.lower(): v for k, v in self.headers.items() if k.lower() not in SECRET_HEADERS}
        self.cfg.record(
            {
                "seq": self.seq,
                "time": time.time(),
                "method": self.command,
                "path": self.split_path,
                "query": parts.query,
                "api": handler.name if handler else None,
                "headers": headers,
                "body": body_field,
            }
        )
        if handler is None:
            return self.send_json({})
        try:
            handler.handle(self)
        except (BrokenPipeError, ConnectionResetError):
            pass

    do_POST = _dispatch
    do_GET = _dispatch
    do_PUT = _dispatch
    do_DELETE = _dispatch

    def do_HEAD(self):
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    # Answers.
    def send_json(self, obj, status=200):
        data = json.dumps(obj).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("request-id", "req_mock%04d" % self.seq)
        self.end_headers()
        self.wfile.write(data)

    def send_sse(self, events):
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        self.send_header("request-id", "req_mock%04d" % self.seq)
        self.end_headers()
        for name, data in events:
            chunk = ""
            if name:
                chunk += "event: %s\n" % name
            chunk += "data: %s\n\n" % json.dumps(data)
            self._chunk(chunk.encode("utf-8"))
        self._chunk(b"")

    def _chunk(self, data):
        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
        self.wfile.flush()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("port", nargs="?", type=int, help="port (else --port, MOCK_PORT or a free one)")
    ap.add_argument("--port", dest="port_opt", type=int)
    ap.add_argument("--log", default=os.environ.get("MOCK_LOG", "mock-requests.jsonl"))
    ap.add_argument("--port-file", help="write the port taken to this file")
    ap.add_argument(
        "--skills",
        default=os.environ.get("MOCK_SKILLS", ""),
        help="skills to load with the agent's skill tool, one per model turn, comma-separated",
    )
    ap.add_argument(
        "--steps",
        default=os.environ.get("MOCK_STEPS", ""),
        help='JSON list of steps: {"skill": NAME, "args": TEXT} or {"tool": NAME, "input": {...}}',
    )
    ap.add_argument(
        "--skill-tools",
        default=os.environ.get("MOCK_SKILL_TOOLS", "Skill,skill,activate_skill"),
        help="names of skill tools, comma-separated",
    )
    ap.add_argument("--text", default=os.environ.get("MOCK_TEXT", "ok"))
    args = ap.parse_args()
    port = args.port if args.port is not None else args.port_opt
    if port is None:
        port = int(os.environ.get("MOCK_PORT", "0"))
    steps = json.loads(args.steps) if args.steps.strip() else []
    steps += [{"skill": s} for s in args.skills.split(",") if s]
    cfg = Config(
        steps=steps,
        skill_tools=[s for s in args.skill_tools.split(",") if s],
        text=args.text,
        log_path=args.log,
    )
    Handler.cfg = cfg
    server = ThreadingHTTPServer((BIND_ADDRESS, port), Handler)
    server.daemon_threads = True
    taken = server.server_address[1]
    if args.port_file:
        with open(args.port_file, "w") as f:
            f.write("%d\n" % taken)
    print("mock-model-server listening on %s:%d, log %s" % (BIND_ADDRESS, taken, args.log), flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())
