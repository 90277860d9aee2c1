#!/usr/bin/env python3
"""Turn a `tmux capture-pane -e -p` dump (text with SGR escapes) into a standalone HTML page.

Usage: ansi2html.py IN.ans OUT.html [--cols N] [--rows N] [--title T]
Only SGR (colour / bold / dim / italic / underline / reverse) is understood; that is all
capture-pane emits.
"""
import argparse
import html
import re

BG = "#1b1d23"
FG = "#d6d6d6"
# xterm's 16 colours, a little softened for a dark page.
BASE16 = [
    "#1b1d23", "#e06c75", "#98c379", "#e5c07b", "#61afef", "#c678dd", "#56b6c2", "#d6d6d6",
    "#5c6370", "#ff7b86", "#b5e890", "#ffd580", "#82c4ff", "#e19ef5", "#7fd8e3", "#ffffff",
]


def xterm256(n):
    if n < 16:
        return BASE16[n]
    if n < 232:
        n -= 16
        steps = [0, 95, 135, 175, 215, 255]
        return "#%02x%02x%02x" % (steps[n // 36], steps[(n // 6) % 6], steps[n % 6])
    v = 8 + (n - 232) * 10
    return "#%02x%02x%02x" % (v, v, v)


class State:
    def __init__(self):
        self.reset()

    def reset(self):
        self.fg = None
        self.bg = None
        self.bold = self.dim = self.italic = self.underline = self.reverse = False

    def apply(self, params):
        codes = [int(p) if p else 0 for p in params.split(";")] if params else [0]
        i = 0
        while i < len(codes):
            c = codes[i]
            if c == 0:
                self.reset()
            elif c == 1:
                self.bold = True
            elif c == 2:
                self.dim = True
            elif c == 3:
                self.italic = True
            elif c == 4:
                self.underline = True
            elif c == 7:
                self.reverse = True
            elif c == 22:
                self.bold = self.dim = False
            elif c == 23:
                self.italic = False
            elif c == 24:
                self.underline = False
            elif c == 27:
                self.reverse = False
            elif 30 <= c <= 37:
                self.fg = BASE16[c - 30]
            elif 90 <= c <= 97:
                self.fg = BASE16[c - 90 + 8]
            elif 40 <= c <= 47:
                self.bg = BASE16[c - 40]
            elif 100 <= c <= 107:
                self.bg = BASE16[c - 100 + 8]
            elif c == 39:
                self.fg = None
            elif c == 49:
                self.bg = None
            elif c in (38, 48) and i + 1 < len(codes):
                if codes[i + 1] == 5 and i + 2 < len(codes):
                    color = xterm256(codes[i + 2])
                    i += 2
                elif codes[i + 1] == 2 and i + 4 < len(codes):
                    color = "#%02x%02x%02x" % tuple(codes[i + 2 : i + 5])
                    i += 4
                else:
                    color = None
                if c == 38:
                    self.fg = color
                else:
                    self.bg = color
            i += 1

    def css(self):
        fg, bg = self.fg or FG, self.bg or BG
        if self.reverse:
            fg, bg = bg, fg
        out = []
        if fg != FG:
            out.append("color:" + fg)
        if bg != BG:
            out.append("background:" + bg)
        if self.bold:
            out.append("font-weight:bold")
        if self.dim:
            out.append("opacity:.6")
        if self.italic:
            out.append("font-style:italic")
        if self.underline:
            out.append("text-decoration:underline")
        return ";".join(out)


SGR = re.compile(r"\x1b\[([0-9;]*)m")
OTHER = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def convert(text, rows):
    state = State()
    lines = text.split("\n")
    if rows:
        lines = (lines + [""] * rows)[:rows]
    out = []
    for line in lines:
        parts = []
        pos = 0
        for m in SGR.finditer(line):
            if m.start() > pos:
                parts.append((state.css(), line[pos : m.start()]))
            state.apply(m.group(1))
            pos = m.end()
        parts.append((state.css(), line[pos:]))
        spans = []
        for css, chunk in parts:
            chunk = OTHER.sub("", chunk)
            if not chunk:
                continue
            esc = html.escape(chunk)
            spans.append('<span style="%s">%s</span>' % (css, esc) if css else esc)
        out.append("".join(spans))
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("src")
    ap.add_argument("dst")
    ap.add_argument("--rows", type=int, default=0)
    ap.add_argument("--title", default="skillscope")
    a = ap.parse_args()
    with open(a.src, encoding="utf-8", errors="replace") as f:
        body = convert(f.read().rstrip("\n"), a.rows)
    page = """<!doctype html><html><head><meta charset="utf-8"><title>%s</title><style>
html,body{margin:0;background:%s}
pre{margin:0;padding:14px 16px;color:%s;font:15px/1.16 "DejaVu Sans Mono","Liberation Mono",monospace;
white-space:pre;font-variant-ligatures:none}
</style></head><body><pre>%s</pre></body></html>
""" % (html.escape(a.title), BG, FG, body)
    with open(a.dst, "w", encoding="utf-8") as f:
        f.write(page)


if __name__ == "__main__":
    main()
