#!/usr/bin/env python3
"""csv-stats: summary statistics for the numeric columns of a CSV file."""
import csv
import json
import sys

SCHEMA = {
    "name": "csv-stats",
    "description": "Count, mean, min and max of every numeric column of a CSV file.",
    "parameters": {
        "type": "object",
        "properties": {
            "path": {"type": "string", "description": "Path of the CSV file."},
            "delimiter": {"type": "string", "description": "Field separator.", "default": ","},
        },
        "required": ["path"],
    },
}


def run(args):
    columns = {}
    with open(args["path"], newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f, delimiter=args.get("delimiter", ",")):
            for key, value in row.items():
                try:
                    columns.setdefault(key, []).append(float(value))
                except (TypeError, ValueError):
                    pass
    return {
        key: {"count": len(v), "mean": sum(v) / len(v), "min": min(v), "max": max(v)}
        for key, v in columns.items()
        if v
    }


if __name__ == "__main__":
    if len(sys.argv) >= 2 and sys.argv[1] == "--help-json":
        print(json.dumps(SCHEMA))
    elif len(sys.argv) >= 3 and sys.argv[1] == "--run-json":
        print(json.dumps(run(json.loads(sys.argv[2]))))
    else:
        print("usage: execute.py --help-json | --run-json '<args>'", file=sys.stderr)
        sys.exit(2)
