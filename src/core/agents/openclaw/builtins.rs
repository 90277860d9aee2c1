//! OpenClaw 2026.9.6's bundled and plugin skills that were eligible on the capture machine
//! (`tests/fixtures/agents/openclaw@2026.9.6/mixed/listing.txt`), as data of its model: name and
//! description as listed (unescaped), and where each is. OpenClaw gates each bundled skill by the
//! binaries, OS and configuration of the host (`metadata.openclaw.requires`), so another host
//! lists others: this is the capture's set, not a rule.

use crate::core::listing::BuiltinEntry;

/// The eligible built-ins, in the capture's (name) order.
pub static BUILTINS: &[BuiltinEntry] = &[
    BuiltinEntry {
        name: "add-model-provider",
        description: "Add and live-prove a model provider with non-interactive config one-liners, without exposing credentials.",
        fixed: true,
        location: "",
    },
    BuiltinEntry {
        name: "browser-automation",
        description: "Use when controlling web pages with the OpenClaw browser tool, especially multi-step flows, login checks, tab management, or recovery from stale refs/timeouts.",
        fixed: true,
        location: "",
    },
    BuiltinEntry {
        name: "canvas",
        description: "Present hosted widget documents on a connected macOS panel and control panel visibility or navigation.",
        fixed: true,
        location: "",
    },
    BuiltinEntry {
        name: "clawhub",
        description: "Search ClawHub for skills when a requested capability is not already available; install, verify, update, uninstall, publish, or sync skills.",
        fixed: true,
        location: "",
    },
    BuiltinEntry {
        name: "cloud-image-bake",
        description: "Bake, select, prove, and safely retire a Cloud Worker image with crabbox and config one-liners.",
        fixed: true,
        location: "",
    },
    BuiltinEntry {
        name: "configure-channel",
        description: "Configure and prove a chat channel with non-interactive one-liners; secrets only as SecretRefs.",
        fixed: true,
        location: "",
    },
    BuiltinEntry {
        name: "control-ui",
        description: "Operate and troubleshoot the OpenClaw Control UI: navigate connected clients, organize sessions, build session dashboards, and handle direct or Tailscale-hosted Gateways.",
        fixed: true,
        location: "",
    },
    BuiltinEntry {
        name: "diagnose-gateway",
        description: "Diagnose Gateway, config, secrets, channels, and port failures with read-only one-liners.",
        fixed: true,
        location: "",
    },
    BuiltinEntry {
        name: "diagram-maker",
        description: "Create SVG/HTML or Excalidraw diagrams for concepts, architecture, flows, and whiteboards.",
        fixed: true,
        location: "",
    },
    BuiltinEntry {
        name: "healthcheck",
        description: "Audit/harden OpenClaw hosts: SSH, firewall, updates, exposure, backups, disk encryption, gateway security.",
        fixed: true,
        location: "",
    },
    BuiltinEntry {
        name: "meme-maker",
        description: "Search meme templates, suggest formats, and generate local or hosted image memes.",
        fixed: true,
        location: "",
    },
    BuiltinEntry {
        name: "node-connect",
        description: "Diagnose OpenClaw Control UI browser and native Android, iOS, or macOS node connection failures across route, auth, pairing, QR/setup-code, and reconnect states.",
        fixed: true,
        location: "",
    },
    BuiltinEntry {
        name: "node-inspect-debugger",
        description: "Debug Node.js with node inspect, --inspect, breakpoints, CDP, heap, and CPU profiles.",
        fixed: true,
        location: "",
    },
    BuiltinEntry {
        name: "notion",
        description: "Notion CLI/API for pages, Markdown content, data sources, files, comments, search, Workers, and raw API calls.",
        fixed: true,
        location: "",
    },
    BuiltinEntry {
        name: "python-debugpy",
        description: "Debug Python with pdb, breakpoint(), post-mortem inspection, and debugpy remote attach.",
        fixed: true,
        location: "",
    },
    BuiltinEntry {
        name: "skill-creator",
        description: "Author or review AgentSkills: create, repair, validate, or restructure SKILL.md files and bundled resources.",
        fixed: true,
        location: "",
    },
    BuiltinEntry {
        name: "spike",
        description: "Run throwaway prototypes to validate feasibility, compare approaches, and report a verdict.",
        fixed: true,
        location: "",
    },
    BuiltinEntry {
        name: "taskflow",
        description: "Run resumable approval workflows and coordinated subagent recipes with TaskFlow, Swarm, and optional Workboard claims.",
        fixed: true,
        location: "",
    },
    BuiltinEntry {
        name: "taskflow-inbox-triage",
        description: "Preview synthetic inbox routing with a real TaskFlow approval pause, and identify the adapters needed for live triage.",
        fixed: true,
        location: "",
    },
    BuiltinEntry {
        name: "tmux",
        description: "Control tmux sessions/panes for interactive CLIs: list, capture output, send keys, paste text, monitor prompts.",
        fixed: true,
        location: "",
    },
    BuiltinEntry {
        name: "visualize",
        description: "Create inline visuals for code and explanations, or author persistent OpenClaw dashboard widgets with show_widget.",
        fixed: true,
        location: "",
    },
    BuiltinEntry {
        name: "weather",
        description: "Current weather and forecasts with web_fetch, falling back to wttr.in curl for locations, rain, temperature, travel planning.",
        fixed: true,
        location: "",
    },
];
