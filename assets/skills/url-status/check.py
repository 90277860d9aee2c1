#!/usr/bin/env python3
"""url-status: HTTP status of a list of URLs."""
import json
import sys
import urllib.request

SCHEMA = {
    "name": "url-status",
    "description": "HTTP status code and final URL of each given URL.",
    "parameters": {
        "type": "object",
        "properties": {
            "urls": {"type": "array", "items": {"type": "string"}, "description": "URLs to check."},
            "timeout": {"type": "number", "description": "Seconds per request.", "default": 5},
        },
        "required": ["urls"],
    },
}


def run(args):
    out = []
    for url in args["urls"]:
        try:
            with urllib.request.urlopen(url, timeout=args.get("timeout", 5)) as r:
                out.append({"url": url, "status": r.status, "final": r.geturl()})
        except Exception as e:  # report, don't crash: one bad URL must not hide the others
            out.append({"url": url, "error": str(e)})
    return out


if __name__ == "__main__":
    if len(sys.argv) >= 2 and sys.argv[1] == "--help-json":
        print(json.dumps(SCHEMA))
    elif len(sys.argv) >= 3 and sys.argv[1] == "--run-json":
        print(json.dumps(run(json.loads(sys.argv[2]))))
    else:
        print("usage: check.py --help-json | --run-json '<args>'", file=sys.stderr)
        sys.exit(2)
