#!/usr/bin/env python3
"""A loopback stand-in for the ClawHub registry API, enough for `clawhub install/update/pin`.

    python3 scripts/mock_clawhub.py --skills DIR --port-file FILE [--log FILE]

DIR holds one folder per published skill version: DIR/<slug>/<version>/ with the skill's files
(SKILL.md ...). The owner handle of every skill is "example". Served (the routes clawhub 0.23.x
calls, its schemas in dist/schema/schemas.js):

  GET /api/v1/skills/<slug>                       skill, latestVersion (highest version), owner
  GET /api/v1/skills/<slug>/versions/<version>    one version
  GET /api/v1/download?slug=&version=             the version's files as a zip (paths relative
                                                  to the skill folder, as clawhub extracts them)
  GET /api/v1/resolve?slug=&hash=                 which version's fingerprint equals hash
                                                  (clawhub's buildSkillFingerprint)
  anything else                                   404, recorded

Folders are read on every request, so a version added while the server runs is served from then
on. Every request is appended to --log as a JSON line. Binds 127.0.0.1 only. Standard library only.
"""

import argparse
import hashlib
import io
import json
import os
import sys
import zipfile
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, unquote, urlsplit

OWNER = "example"
CREATED = 1767225600000  # 2026-01-01T00:00:00Z in ms, fixed

# clawhub sorts paths with JavaScript's localeCompare (ICU root collation); for ASCII paths this
# primary order (case-insensitive), then lowercase before uppercase, gives the same order.
PRIMARY = [" ", "_", "-", ",", ";", ":", "!", "?", ".", "'", '"', "(", ")", "[", "]", "{", "}",
           "@", "*", "/", "\\", "&", "#", "%", "`", "^", "+", "<", "=", ">", "|", "~", "$"]
PRIMARY += list("0123456789") + list("abcdefghijklmnopqrstuvwxyz")
RANK = {c: i for i, c in enumerate(PRIMARY)}


def locale_key(s):
    return (tuple(RANK.get(c.lower(), 1000 + ord(c)) for c in s), tuple(c.isupper() for c in s))


def version_key(v):
    return tuple(int(x) if x.isdigit() else x for x in v.split("."))


def files_of(folder):
    out = []
    for root, dirs, names in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for n in sorted(names):
            if n.startswith("."):
                continue
            p = os.path.join(root, n)
            out.append((os.path.relpath(p, folder).replace(os.sep, "/"), open(p, "rb").read()))
    return out


def fingerprint(files):
    rows = sorted(((p, hashlib.sha256(b).hexdigest()) for p, b in files), key=lambda r: locale_key(r[0]))
    return hashlib.sha256("\n".join("%s:%s" % r for r in rows).encode("utf-8")).hexdigest()


class Handler(BaseHTTPRequestHandler):
    root = None
    log_path = None

    def log_message(self, fmt, *args):
        pass

    def record(self, status):
        if self.log_path:
            with open(self.log_path, "a", encoding="utf-8") as f:
                f.write(json.dumps({"method": self.command, "path": self.path, "status": status}) + "\n")

    def versions(self, slug):
        d = os.path.join(self.root, slug)
        if "/" in slug or slug.startswith(".") or not os.path.isdir(d):
            return []
        return sorted(os.listdir(d), key=version_key)

    def send_json(self, obj, status=200):
        data = json.dumps(obj).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
        self.record(status)

    def skill_obj(self, slug):
        return {"slug": slug, "displayName": slug, "summary": None, "tags": {}, "stats": {},
                "createdAt": CREATED, "updatedAt": CREATED}

    def version_obj(self, v):
        return {"version": v, "createdAt": CREATED, "changelog": "", "license": None}

    def do_GET(self):
        parts = urlsplit(self.path)
        q = {k: v[0] for k, v in parse_qs(parts.query).items()}
        segs = [unquote(s) for s in parts.path.split("/") if s]
        if segs[:3] == ["api", "v1", "skills"] and len(segs) == 4:
            vs = self.versions(segs[3])
            if not vs:
                return self.send_json({"error": "not found"}, 404)
            return self.send_json({"skill": self.skill_obj(segs[3]), "latestVersion": self.version_obj(vs[-1]),
                                   "owner": {"handle": OWNER, "displayName": OWNER},
                                   "moderation": {"isSuspicious": False, "isMalwareBlocked": False}})
        if segs[:3] == ["api", "v1", "skills"] and len(segs) == 6 and segs[4] == "versions":
            if segs[5] not in self.versions(segs[3]):
                return self.send_json({"error": "not found"}, 404)
            return self.send_json({"version": self.version_obj(segs[5]),
                                   "skill": {"slug": segs[3], "displayName": segs[3]}})
        if segs == ["api", "v1", "download"]:
            slug, v = q.get("slug", ""), q.get("version", "")
            if v not in self.versions(slug):
                return self.send_json({"error": "not found"}, 404)
            buf = io.BytesIO()
            with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
                for p, b in files_of(os.path.join(self.root, slug, v)):
                    info = zipfile.ZipInfo(p, date_time=(2026, 1, 1, 0, 0, 0))
                    z.writestr(info, b)
            data = buf.getvalue()
            self.send_response(200)
            self.send_header("Content-Type", "application/zip")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            return self.record(200)
        if segs == ["api", "v1", "resolve"]:
            slug, h = q.get("slug", ""), q.get("hash", "")
            vs = self.versions(slug)
            match = next((v for v in vs if fingerprint(files_of(os.path.join(self.root, slug, v))) == h), None)
            return self.send_json({"match": {"version": match} if match else None,
                                   "latestVersion": {"version": vs[-1]} if vs else None})
        return self.send_json({"error": "not served by the mock"}, 404)

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        self.send_json({"ok": True}, 404)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--skills", required=True)
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--port-file")
    ap.add_argument("--log")
    args = ap.parse_args()
    Handler.root = os.path.abspath(args.skills)
    Handler.log_path = args.log
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    if args.port_file:
        with open(args.port_file, "w") as f:
            f.write("%d\n" % server.server_address[1])
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())
