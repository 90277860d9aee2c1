#!/usr/bin/env python3
"""OpenAI Chat Completions for the loopback mock model server.

scripts/mock-model-server.py answers the Anthropic Messages, OpenAI Responses and Gemini APIs.
This module adds the API most OpenAI-compatible clients speak (Qwen Code, GitHub Copilot CLI
with a custom provider, Cline's openai provider, OpenClaw's openai-completions provider):

  * POST /v1/chat/completions (also /chat/completions), streamed (SSE ending in [DONE]) or not
  * GET  /v1/models, /models  (an OpenAI model list that also carries Anthropic's fields)

Run it as the server: `python3 scripts/mock_chat.py --log FILE --skills NAME --skill-tools T`
takes the same options as mock-model-server.py (it loads that file and puts this handler
first). The scripted behaviour is the same: when the request declares the skill tool and the
conversation holds fewer tool results (messages of role "tool") than skills to load, the answer
calls the tool for the next skill; every other answer is the plain text (default "ok").

Binds 127.0.0.1 only (mock-model-server.py's BIND_ADDRESS). Python 3 standard library only.
"""

import importlib.util
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def load_base():
    """mock-model-server.py as a module (its file name has hyphens)."""
    path = os.path.join(HERE, "mock-model-server.py")
    spec = importlib.util.spec_from_file_location("mock_model_server", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


base = load_base()


def tool_input(reply):
    """The tool call's arguments, whichever shape the base server's Reply has."""
    if getattr(reply, "input", None) is not None:
        return reply.input
    return {reply.arg: reply.value}


class ChatCompletions(base.ApiHandler):
    """OpenAI Chat Completions."""

    name = "openai-chat"

    def matches(self, method, path):
        if path.endswith("/chat/completions"):
            return True
        return method == "GET" and (path.endswith("/models") or "/models/" in path)

    def handle(self, req):
        if req.command == "GET":
            model = {
                "id": "mock-model",
                "object": "model",
                "created": 0,
                "owned_by": "mock",
                "type": "model",
                "display_name": "Mock",
                "created_at": "2025-01-01T00:00:00Z",
            }
            if "/models/" in req.split_path:
                return req.send_json(dict(model, id=req.split_path.rsplit("/", 1)[-1]))
            return req.send_json({"object": "list", "data": [model], "has_more": False})
        body = req.body or {}
        tools = {}
        for t in body.get("tools") or []:
            fn = (t or {}).get("function") or {}
            if "name" in fn:
                tools[fn["name"]] = fn.get("parameters")
        results = sum(1 for m in body.get("messages") or [] if (m or {}).get("role") == "tool")
        reply = self.pick(req.cfg, tools, results)
        seq = req.seq
        cid = "chatcmpl-mock%04d" % seq
        model = body.get("model", "mock-model")
        usage = {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}
        if reply.is_tool:
            call = {
                "id": "call_mock%04d" % seq,
                "type": "function",
                "function": {"name": reply.tool, "arguments": json.dumps(tool_input(reply))},
            }
            message = {"role": "assistant", "content": None, "tool_calls": [call]}
            finish = "tool_calls"
        else:
            message = {"role": "assistant", "content": reply.text}
            finish = "stop"
        if not body.get("stream"):
            return req.send_json(
                {
                    "id": cid,
                    "object": "chat.completion",
                    "created": 0,
                    "model": model,
                    "choices": [{"index": 0, "message": message, "finish_reason": finish}],
                    "usage": usage,
                }
            )

        def chunk(delta, finish_reason=None, with_usage=False):
            c = {
                "id": cid,
                "object": "chat.completion.chunk",
                "created": 0,
                "model": model,
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}],
            }
            if with_usage:
                c["usage"] = usage
            return c

        if reply.is_tool:
            first = chunk({"role": "assistant", "content": None, "tool_calls": [dict(call, index=0)]})
        else:
            first = chunk({"role": "assistant", "content": reply.text})
        chunks = [first, chunk({}, finish)]
        if (body.get("stream_options") or {}).get("include_usage"):
            chunks.append(
                {
                    "id": cid,
                    "object": "chat.completion.chunk",
                    "created": 0,
                    "model": model,
                    "choices": [],
                    "usage": usage,
                }
            )
        req.send_response(200)
        req.send_header("Content-Type", "text/event-stream")
        req.send_header("Cache-Control", "no-cache")
        req.send_header("Transfer-Encoding", "chunked")
        req.end_headers()
        for c in chunks:
            req._chunk(("data: %s\n\n" % json.dumps(c)).encode("utf-8"))
        req._chunk(b"data: [DONE]\n\n")
        req._chunk(b"")


base.HANDLERS.insert(0, ChatCompletions())

if __name__ == "__main__":
    sys.exit(base.main())
