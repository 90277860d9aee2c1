//! A loopback mock of the model APIs the clients speak, just enough for one turn that ends with
//! the text "ok": Anthropic Messages (SSE or JSON, `count_tokens`, the models list), OpenAI
//! Responses (SSE), OpenAI Chat Completions (SSE ending in `[DONE]`, or JSON) and Gemini (`generateContent`, `streamGenerateContent`, `countTokens`,
//! embeddings). Every request is recorded. Hand-written HTTP/1.1 over `std::net`, one thread a
//! connection: a client run makes a handful of requests. `scripts/mock-model-server.py` is the
//! reference it follows (without the scripted tool calls, which a verify run does not need).

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

/// Most requests recorded; later ones are answered but not kept.
pub const MAX_REQUESTS: usize = 64;
/// Largest request body read; a longer one is read past (streamed to nowhere), answered, and
/// recorded with its size and why it was not read.
pub const MAX_BODY: usize = 32 << 20;
/// Most body bytes held at once across all connections while they are read and answered; a body
/// that would go over it is read past like one over [`MAX_BODY`].
pub const IN_FLIGHT: usize = 32 << 20;
/// Longest request head (request line and headers).
const MAX_HEAD: u64 = 64 << 10;
/// The text every model turn answers.
pub const ANSWER: &str = "ok";

/// One request the mock received.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Request {
    /// `GET`, `POST`…
    pub method: String,
    /// The path, without the query.
    pub path: String,
    /// The query, without its `?`.
    pub query: String,
    /// The body, as text (lossy where it is not UTF-8): kept only for the first request that
    /// carries the skills (see [`serve`]); "" for the others.
    pub body: String,
    /// The body's size as received, in bytes.
    #[serde(default)]
    pub size: u64,
    /// Why the body was not read, when a cap stopped it.
    #[serde(default)]
    pub unread: Option<String>,
}

impl Request {
    /// The body as JSON, when it is.
    pub fn json(&self) -> Option<Value> {
        serde_json::from_str(&self.body).ok()
    }
}

/// What the mock received so far.
pub type Recorded = Arc<Mutex<Vec<Request>>>;

/// Whether a request carries what is looked for (the client's turn with the skills).
pub type Wanted = Arc<dyn Fn(&Request) -> bool + Send + Sync>;

/// What the connections share: the record, the bytes being read, and whether the wanted
/// request was kept already.
struct Shared {
    recorded: Recorded,
    wanted: Wanted,
    found: AtomicBool,
    in_flight: Mutex<usize>,
}

impl Shared {
    /// Takes `n` bytes of the in-flight allowance; `false` when they are not there.
    fn reserve(&self, n: usize) -> bool {
        let mut used = self
            .in_flight
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if *used + n > IN_FLIGHT {
            return false;
        }
        *used += n;
        true
    }

    fn release(&self, n: usize) {
        let mut used = self
            .in_flight
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        *used = used.saturating_sub(n);
    }
}

/// Serves `listener` on a thread of its own until the process ends; returns the record. Every
/// request is recorded (method, path, query, body size), but only one body is kept: that of the
/// first request `wanted` says carries the skills. Bodies are read within [`MAX_BODY`] each and
/// [`IN_FLIGHT`] in all, so a client posting many huge bodies holds at most that much memory.
pub fn serve(listener: TcpListener, wanted: Wanted) -> std::io::Result<Recorded> {
    let shared = Arc::new(Shared {
        recorded: Arc::default(),
        wanted,
        found: AtomicBool::new(false),
        in_flight: Mutex::new(0),
    });
    let recorded = Arc::clone(&shared.recorded);
    std::thread::Builder::new()
        .name("verify-mock".into())
        .spawn(move || {
            for stream in listener.incoming().flatten() {
                let shared = Arc::clone(&shared);
                let _ = std::thread::Builder::new()
                    .name("verify-mock-conn".into())
                    .spawn(move || connection(stream, &shared));
            }
        })?;
    Ok(recorded)
}

/// Answers the requests of one connection until it closes (keep-alive).
fn connection(stream: TcpStream, shared: &Shared) {
    let _ = stream.set_read_timeout(Some(Duration::from_mins(2)));
    let Ok(write_half) = stream.try_clone() else {
        return;
    };
    let mut reader = BufReader::new(stream);
    let mut writer = write_half;
    while let Some((mut req, close, held)) = read_request(&mut reader, shared) {
        let (status, kind, body) = answer(&req);
        let keep = req.unread.is_none()
            && !shared.found.load(Ordering::SeqCst)
            && (shared.wanted)(&req)
            && !shared.found.swap(true, Ordering::SeqCst);
        if !keep {
            req.body = String::new();
        }
        shared.release(held);
        {
            let mut r = shared
                .recorded
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            if r.len() < MAX_REQUESTS {
                r.push(req);
            } else if keep {
                // The one body looked for takes the last place.
                if let Some(last) = r.last_mut() {
                    *last = req;
                }
            }
        }
        let head = format!(
            "HTTP/1.1 {status}\r\ncontent-type: {kind}\r\ncontent-length: {}\r\n\
             cache-control: no-cache\r\nrequest-id: req_verify\r\nconnection: {}\r\n\r\n",
            body.len(),
            if close { "close" } else { "keep-alive" }
        );
        if writer.write_all(head.as_bytes()).is_err()
            || writer.write_all(&body).is_err()
            || writer.flush().is_err()
            || close
        {
            return;
        }
    }
}

/// A body as the mock got it: its bytes (when read), its size, and why it was not read.
struct Body {
    bytes: Vec<u8>,
    size: u64,
    unread: Option<String>,
    /// In-flight bytes it holds, released once the request is answered.
    held: usize,
}

impl Body {
    fn skipped(size: u64, why: String) -> Body {
        Body {
            bytes: Vec::new(),
            size,
            unread: Some(why),
            held: 0,
        }
    }
}

fn over_body(size: u64) -> String {
    format!(
        "its body of {} bytes is over the {} MiB a request body may have",
        crate::core::words::text::thousands(size),
        MAX_BODY >> 20
    )
}

fn over_flight(size: u64) -> String {
    format!(
        "its body of {} bytes would have taken the mock over the {} MiB it reads at once",
        crate::core::words::text::thousands(size),
        IN_FLIGHT >> 20
    )
}

/// One request off the connection, whether the client asked to close it after, and the
/// in-flight bytes its body holds; `None` at its end or on a request that is not HTTP/1.x.
fn read_request(
    reader: &mut BufReader<TcpStream>,
    shared: &Shared,
) -> Option<(Request, bool, usize)> {
    let mut head = Vec::new();
    {
        let mut limited = reader.by_ref().take(MAX_HEAD);
        loop {
            let start = head.len();
            if limited.read_until(b'\n', &mut head).ok()? == 0 {
                return None;
            }
            let line = &head[start..];
            if line == b"\r\n" || line == b"\n" {
                if start == 0 {
                    // A stray line break between requests.
                    head.clear();
                    continue;
                }
                break;
            }
        }
    }
    let text = String::from_utf8_lossy(&head);
    let mut lines = text.lines();
    let mut first = lines.next()?.split(' ');
    let (method, target) = (first.next()?.to_string(), first.next()?.to_string());
    let (mut length, mut chunked, mut close) = (0u64, false, false);
    for l in lines {
        let Some((k, v)) = l.split_once(':') else {
            continue;
        };
        let (k, v) = (k.trim().to_ascii_lowercase(), v.trim().to_ascii_lowercase());
        match k.as_str() {
            "content-length" => length = v.parse().ok()?,
            "transfer-encoding" => chunked = v.contains("chunked"),
            "connection" => close = v == "close",
            _ => {}
        }
    }
    let body = if chunked {
        read_chunked(reader, shared)?
    } else {
        read_sized(reader, shared, length)?
    };
    let (path, query) = match target.split_once('?') {
        Some((p, q)) => (p.to_string(), q.to_string()),
        None => (target, String::new()),
    };
    let text = String::from_utf8(body.bytes)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
    Some((
        Request {
            method,
            path,
            query,
            body: text,
            size: body.size,
            unread: body.unread,
        },
        close,
        body.held,
    ))
}

/// Reads past `n` bytes of the connection; `None` when it ends first.
fn skip(reader: &mut BufReader<TcpStream>, n: u64) -> Option<()> {
    let copied = std::io::copy(&mut reader.by_ref().take(n), &mut std::io::sink()).ok()?;
    (copied == n).then_some(())
}

/// A body of `length` bytes (`Content-Length`).
fn read_sized(reader: &mut BufReader<TcpStream>, shared: &Shared, length: u64) -> Option<Body> {
    let Some(n) = usize::try_from(length).ok().filter(|&n| n <= MAX_BODY) else {
        skip(reader, length)?;
        return Some(Body::skipped(length, over_body(length)));
    };
    if !shared.reserve(n) {
        skip(reader, length)?;
        return Some(Body::skipped(length, over_flight(length)));
    }
    let mut bytes = vec![0u8; n];
    if reader.read_exact(&mut bytes).is_err() {
        shared.release(n);
        return None;
    }
    Some(Body {
        bytes,
        size: length,
        unread: None,
        held: n,
    })
}

/// Which cap stopped a body.
#[derive(Clone, Copy)]
enum Over {
    /// [`MAX_BODY`].
    Body,
    /// [`IN_FLIGHT`].
    Flight,
}

/// A chunked body: read while it stays within the caps, read past from the chunk that does not.
fn read_chunked(reader: &mut BufReader<TcpStream>, shared: &Shared) -> Option<Body> {
    let (mut bytes, mut size, mut held) = (Vec::new(), 0u64, 0usize);
    let mut over: Option<Over> = None;
    let ended = loop {
        let mut line = String::new();
        if reader.by_ref().take(1024).read_line(&mut line).is_err() {
            break false;
        }
        let Some(chunk) = line
            .trim()
            .split(';')
            .next()
            .and_then(|n| u64::from_str_radix(n.trim(), 16).ok())
        else {
            break false;
        };
        if chunk == 0 {
            // The trailer, up to its empty line.
            break loop {
                let mut t = String::new();
                match reader.by_ref().take(1024).read_line(&mut t) {
                    Ok(0) | Err(_) => break false,
                    Ok(_) if t.trim().is_empty() => break true,
                    Ok(_) => {}
                }
            };
        }
        size = size.saturating_add(chunk);
        let fits = usize::try_from(chunk)
            .ok()
            .filter(|&n| n <= MAX_BODY.saturating_sub(bytes.len()));
        let read = match (over, fits) {
            (None, Some(n)) if shared.reserve(n) => {
                held += n;
                let start = bytes.len();
                bytes.resize(start + n, 0);
                reader.read_exact(&mut bytes[start..]).is_ok()
            }
            (None, fits) => {
                over = Some(if fits.is_some() {
                    Over::Flight
                } else {
                    Over::Body
                });
                bytes = Vec::new();
                skip(reader, chunk).is_some()
            }
            (Some(_), _) => skip(reader, chunk).is_some(),
        };
        let mut crlf = [0u8; 2];
        if !read || reader.read_exact(&mut crlf).is_err() {
            break false;
        }
    };
    if !ended || over.is_some() {
        shared.release(held);
        held = 0;
    }
    if !ended {
        return None;
    }
    Some(match over {
        None => Body {
            bytes,
            size,
            unread: None,
            held,
        },
        Some(Over::Body) => Body::skipped(size, over_body(size)),
        Some(Over::Flight) => Body::skipped(size, over_flight(size)),
    })
}

/// The answer to one request: status line, content type and body.
pub fn answer(req: &Request) -> (&'static str, &'static str, Vec<u8>) {
    let body = req.json().unwrap_or(Value::Null);
    let p = req.path.as_str();
    let stream = body.get("stream").and_then(Value::as_bool) == Some(true);
    let json_ok = |v: Value| ("200 OK", "application/json", v.to_string().into_bytes());
    let sse = |events: Vec<(Option<&str>, Value)>| ("200 OK", "text/event-stream", sse(&events));
    if req.method == "GET" && p.contains("models") {
        // One answer fits the three lists (Anthropic's `data`, OpenAI's, Gemini's `models`).
        return json_ok(json!({
            "object": "list",
            "data": [{"type": "model", "id": "claude-mock", "display_name": "Mock",
                      "created_at": "2025-01-01T00:00:00Z"},
                     {"type": "model", "id": "mock-model", "object": "model", "created": 0,
                      "owned_by": "mock", "display_name": "Mock",
                      "created_at": "2025-01-01T00:00:00Z"}],
            "has_more": false, "first_id": "claude-mock", "last_id": "claude-mock",
            "models": [],
        }));
    }
    if p.starts_with("/v1/messages") {
        if p.ends_with("/count_tokens") {
            return json_ok(json!({"input_tokens": (req.body.len() / 4).max(1)}));
        }
        let model = body.get("model").cloned().unwrap_or(json!("claude-mock"));
        return if stream {
            sse(anthropic_events(&model))
        } else {
            json_ok(anthropic_message(&model))
        };
    }
    if p.starts_with("/v1/responses") || p.starts_with("/responses") {
        let model = body.get("model").cloned().unwrap_or(json!("mock"));
        let (events, done) = responses_events(&model);
        return if stream { sse(events) } else { json_ok(done) };
    }
    if p.ends_with("/chat/completions") {
        let model = body.get("model").cloned().unwrap_or(json!("mock-model"));
        let usage = stream_usage(&body);
        return if stream {
            ("200 OK", "text/event-stream", chat_events(&model, usage))
        } else {
            json_ok(chat_completion(&model))
        };
    }
    if let Some(answer) = gemini(req, &body) {
        return answer;
    }
    json_ok(json!({}))
}

/// Whether a streamed Chat Completions request asks for the usage chunk at the end.
fn stream_usage(body: &Value) -> bool {
    body.get("stream_options")
        .and_then(|o| o.get("include_usage"))
        .and_then(Value::as_bool)
        == Some(true)
}

fn chat_usage() -> Value {
    json!({"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2})
}

fn chat_completion(model: &Value) -> Value {
    json!({
        "id": "chatcmpl-verify", "object": "chat.completion", "created": 0, "model": model,
        "choices": [{"index": 0, "message": {"role": "assistant", "content": ANSWER},
                     "finish_reason": "stop"}],
        "usage": chat_usage(),
    })
}

/// A streamed Chat Completions answer: the text, the stop, the usage when asked, `[DONE]`.
fn chat_events(model: &Value, usage: bool) -> Vec<u8> {
    let chunk = |delta: Value, finish: Value| {
        json!({"id": "chatcmpl-verify", "object": "chat.completion.chunk", "created": 0,
               "model": model, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})
    };
    let mut events = vec![
        (
            None,
            chunk(json!({"role": "assistant", "content": ANSWER}), Value::Null),
        ),
        (None, chunk(json!({}), json!("stop"))),
    ];
    if usage {
        events.push((
            None,
            json!({"id": "chatcmpl-verify", "object": "chat.completion.chunk", "created": 0,
                   "model": model, "choices": [], "usage": chat_usage()}),
        ));
    }
    let mut out = sse(&events);
    out.extend_from_slice(b"data: [DONE]\n\n");
    out
}

fn anthropic_message(model: &Value) -> Value {
    json!({
        "id": "msg_verify", "type": "message", "role": "assistant", "model": model,
        "content": [{"type": "text", "text": ANSWER}],
        "stop_reason": "end_turn", "stop_sequence": null,
        "usage": {"input_tokens": 1, "output_tokens": 1,
                  "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0},
    })
}

fn anthropic_events(model: &Value) -> Vec<(Option<&'static str>, Value)> {
    let mut start = anthropic_message(model);
    start["content"] = json!([]);
    start["stop_reason"] = Value::Null;
    vec![
        (
            Some("message_start"),
            json!({"type": "message_start", "message": start}),
        ),
        (
            Some("content_block_start"),
            json!({"type": "content_block_start", "index": 0,
                   "content_block": {"type": "text", "text": ""}}),
        ),
        (
            Some("content_block_delta"),
            json!({"type": "content_block_delta", "index": 0,
                   "delta": {"type": "text_delta", "text": ANSWER}}),
        ),
        (
            Some("content_block_stop"),
            json!({"type": "content_block_stop", "index": 0}),
        ),
        (
            Some("message_delta"),
            json!({"type": "message_delta",
                   "delta": {"stop_reason": "end_turn", "stop_sequence": null},
                   "usage": {"output_tokens": 1}}),
        ),
        (Some("message_stop"), json!({"type": "message_stop"})),
    ]
}

fn responses_events(model: &Value) -> (Vec<(Option<&'static str>, Value)>, Value) {
    let item = json!({
        "type": "message", "id": "msg_verify", "role": "assistant", "status": "completed",
        "content": [{"type": "output_text", "text": ANSWER, "annotations": []}],
    });
    let response = json!({"id": "resp_verify", "object": "response", "created_at": 0,
                          "status": "in_progress", "model": model, "output": []});
    let mut done = response.clone();
    done["status"] = json!("completed");
    done["output"] = json!([item]);
    done["usage"] = json!({"input_tokens": 1, "input_tokens_details": {"cached_tokens": 0},
                           "output_tokens": 1, "output_tokens_details": {"reasoning_tokens": 0},
                           "total_tokens": 2});
    let mut added = item.clone();
    added["status"] = json!("in_progress");
    let events = vec![
        (
            Some("response.created"),
            json!({"type": "response.created", "sequence_number": 0, "response": response}),
        ),
        (
            Some("response.output_item.added"),
            json!({"type": "response.output_item.added", "sequence_number": 1,
                   "output_index": 0, "item": added}),
        ),
        (
            Some("response.output_text.delta"),
            json!({"type": "response.output_text.delta", "sequence_number": 2,
                   "item_id": "msg_verify", "output_index": 0, "content_index": 0,
                   "delta": ANSWER}),
        ),
        (
            Some("response.output_item.done"),
            json!({"type": "response.output_item.done", "sequence_number": 3,
                   "output_index": 0, "item": item}),
        ),
        (
            Some("response.completed"),
            json!({"type": "response.completed", "sequence_number": 4, "response": done}),
        ),
    ];
    (events, done)
}

/// Gemini's API, when the path is one of its calls.
fn gemini(req: &Request, body: &Value) -> Option<(&'static str, &'static str, Vec<u8>)> {
    let p = req.path.as_str();
    let ok = |v: Value| Some(("200 OK", "application/json", v.to_string().into_bytes()));
    if p.contains(":countTokens") {
        return ok(json!({"totalTokens": (req.body.len() / 4).max(1)}));
    }
    if p.contains(":batchEmbedContents") {
        let n = body
            .get("requests")
            .and_then(Value::as_array)
            .map_or(0, Vec::len);
        let one = json!({"values": vec![0.0; 8]});
        return ok(json!({"embeddings": vec![one; n]}));
    }
    if p.contains(":embedContent") {
        return ok(json!({"embedding": {"values": vec![0.0; 8]}}));
    }
    if !p.contains(":generateContent") && !p.contains(":streamGenerateContent") {
        return None;
    }
    let generation = body.get("generationConfig").cloned().unwrap_or(Value::Null);
    // A request for JSON output (the CLI's router) gets a small value fitting its schema.
    let text =
        if generation.get("responseMimeType").and_then(Value::as_str) == Some("application/json") {
            let schema = generation
                .get("responseJsonSchema")
                .or_else(|| generation.get("responseSchema"))
                .cloned()
                .unwrap_or(json!({}));
            fill(&schema, 0).to_string()
        } else {
            ANSWER.to_string()
        };
    let model = p
        .rsplit("/models/")
        .next()
        .and_then(|m| m.split(':').next())
        .unwrap_or("gemini");
    let answer = json!({
        "candidates": [{"content": {"role": "model", "parts": [{"text": text}]},
                        "finishReason": "STOP", "index": 0}],
        "usageMetadata": {"promptTokenCount": 1, "candidatesTokenCount": 1, "totalTokenCount": 2},
        "modelVersion": model, "responseId": "verify",
    });
    if p.contains(":streamGenerateContent") {
        if req.query.split('&').any(|kv| kv == "alt=sse") {
            return Some(("200 OK", "text/event-stream", sse(&[(None, answer)])));
        }
        return ok(json!([answer]));
    }
    ok(answer)
}

/// A small value that fits a JSON schema, as far as a mock can tell.
fn fill(schema: &Value, depth: usize) -> Value {
    if let Some(first) = schema
        .get("enum")
        .and_then(Value::as_array)
        .and_then(|e| e.first())
    {
        return first.clone();
    }
    let kind = schema
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or("object")
        .to_ascii_lowercase();
    match kind.as_str() {
        "object" if depth < 8 => {
            let mut out = serde_json::Map::new();
            if let Some(props) = schema.get("properties").and_then(Value::as_object) {
                for (k, v) in props {
                    out.insert(k.clone(), fill(v, depth + 1));
                }
            }
            Value::Object(out)
        }
        "array" => json!([]),
        "number" | "integer" => schema.get("minimum").cloned().unwrap_or(json!(1)),
        "boolean" => json!(false),
        _ => json!(ANSWER),
    }
}

/// Server-sent events: `event:` lines where named, one `data:` line of JSON each.
fn sse(events: &[(Option<&str>, Value)]) -> Vec<u8> {
    let mut out = String::new();
    for (name, data) in events {
        if let Some(n) = name {
            out.push_str(&format!("event: {n}\n"));
        }
        out.push_str(&format!("data: {data}\n\n"));
    }
    out.into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn post(path: &str, body: Value) -> Request {
        Request {
            method: "POST".into(),
            path: path.into(),
            query: String::new(),
            body: body.to_string(),
            size: 0,
            unread: None,
        }
    }

    #[test]
    fn each_api_gets_its_own_shape_of_ok() {
        let (_, kind, body) = answer(&post("/v1/messages", json!({"stream": true})));
        let text = String::from_utf8(body).unwrap();
        assert_eq!(kind, "text/event-stream");
        assert!(text.contains("event: message_stop") && text.contains("\"text\":\"ok\""));
        let (_, kind, body) = answer(&post("/v1/responses", json!({"stream": true})));
        assert_eq!(kind, "text/event-stream");
        assert!(
            String::from_utf8(body)
                .unwrap()
                .contains("response.completed")
        );
        let (_, _, body) = answer(&post(
            "/v1beta/models/g:generateContent",
            json!({"generationConfig": {"responseMimeType": "application/json",
                   "responseJsonSchema": {"type": "object", "properties": {
                       "model_choice": {"type": "string", "enum": ["flash", "pro"]}}}}}),
        ));
        let v: Value = serde_json::from_slice(&body).unwrap();
        let text = v["candidates"][0]["content"]["parts"][0]["text"]
            .as_str()
            .unwrap();
        assert_eq!(text, r#"{"model_choice":"flash"}"#);
        // Chat Completions: a stream of chunks ending in [DONE], the usage chunk when asked.
        let (_, kind, body) = answer(&post(
            "/v1/chat/completions",
            json!({"stream": true, "stream_options": {"include_usage": true}}),
        ));
        let text = String::from_utf8(body).unwrap();
        assert_eq!(kind, "text/event-stream");
        assert!(text.ends_with("data: [DONE]\n\n"), "{text}");
        assert!(text.contains(r#""content":"ok""#), "{text}");
        assert!(text.contains(r#""finish_reason":"stop""#), "{text}");
        assert!(text.contains(r#""total_tokens":2"#), "{text}");
        let (_, kind, body) = answer(&post("/chat/completions", json!({"model": "m"})));
        assert_eq!(kind, "application/json");
        let v: Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(v["choices"][0]["message"]["content"], "ok");
        assert_eq!(v["model"], "m");
        let (_, _, body) = answer(&post("/elsewhere", json!({})));
        assert_eq!(body, b"{}");
    }

    #[test]
    fn requests_are_recorded_over_keep_alive_and_chunked_bodies() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let recorded = serve(listener, Arc::new(|r: &Request| r.path == "/v1/responses")).unwrap();
        let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
        let body = r#"{"stream":false}"#;
        write!(
            s,
            "POST /v1/messages?beta=true HTTP/1.1\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        )
        .unwrap();
        write!(
            s,
            "POST /v1/responses HTTP/1.1\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n5\r\n{{\"a\":\r\n2\r\n1}}\r\n0\r\n\r\n"
        )
        .unwrap();
        let mut all = String::new();
        s.read_to_string(&mut all).unwrap();
        assert_eq!(all.matches("HTTP/1.1 200 OK").count(), 2, "{all}");
        let r = recorded.lock().unwrap();
        assert_eq!(r.len(), 2);
        assert_eq!(
            (r[0].path.as_str(), r[0].query.as_str()),
            ("/v1/messages", "beta=true")
        );
        // Only the wanted request's body is kept; the other's size is.
        assert_eq!(r[1].body, r#"{"a":1}"#);
        assert_eq!((r[0].body.as_str(), r[0].size), ("", body.len() as u64));
    }

    /// Posts `bodies` (content-length or chunked) on one connection and returns the record.
    fn post_all(bodies: &[(&str, Vec<u8>, bool)]) -> Vec<Request> {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let recorded = serve(listener, Arc::new(|r: &Request| r.path == "/want")).unwrap();
        let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
        let reader = {
            let mut r = s.try_clone().unwrap();
            std::thread::spawn(move || {
                let mut all = Vec::new();
                r.read_to_end(&mut all).unwrap();
                String::from_utf8_lossy(&all)
                    .matches("HTTP/1.1 200 OK")
                    .count()
            })
        };
        for (i, (path, body, chunked)) in bodies.iter().enumerate() {
            let close = if i + 1 == bodies.len() {
                "Connection: close\r\n"
            } else {
                ""
            };
            if *chunked {
                write!(
                    s,
                    "POST {path} HTTP/1.1\r\nTransfer-Encoding: chunked\r\n{close}\r\n"
                )
                .unwrap();
                for part in body.chunks(1 << 20) {
                    write!(s, "{:x}\r\n", part.len()).unwrap();
                    s.write_all(part).unwrap();
                    s.write_all(b"\r\n").unwrap();
                }
                s.write_all(b"0\r\n\r\n").unwrap();
            } else {
                write!(
                    s,
                    "POST {path} HTTP/1.1\r\nContent-Length: {}\r\n{close}\r\n",
                    body.len()
                )
                .unwrap();
                s.write_all(body).unwrap();
            }
        }
        assert_eq!(
            reader.join().unwrap(),
            bodies.len(),
            "every request is answered"
        );
        recorded.lock().unwrap().clone()
    }

    #[test]
    fn bodies_over_the_cap_are_read_past_answered_and_said_so() {
        let huge = vec![b'x'; MAX_BODY + 1];
        let r = post_all(&[
            ("/huge", huge.clone(), false),
            ("/huge-chunked", huge, true),
            ("/want", br#"{"listing":1}"#.to_vec(), false),
        ]);
        assert_eq!(r.len(), 3);
        for big in &r[..2] {
            assert_eq!(big.size, MAX_BODY as u64 + 1, "{}", big.path);
            assert!(big.body.is_empty());
            let why = big.unread.as_deref().unwrap();
            assert!(
                why.contains("over the 32 MiB a request body may have"),
                "{why}"
            );
        }
        // The connection stayed in step: the request after them is read whole.
        assert_eq!(
            (r[2].body.as_str(), r[2].unread.as_deref()),
            (r#"{"listing":1}"#, None)
        );
    }

    #[test]
    fn only_the_first_wanted_body_is_kept() {
        let big = vec![b'y'; 4 << 20];
        let r = post_all(&[
            ("/other", big.clone(), false),
            ("/want", br#"{"first":1}"#.to_vec(), true),
            ("/want", br#"{"second":1}"#.to_vec(), false),
            ("/other", big, true),
        ]);
        let kept: Vec<&str> = r.iter().map(|q| q.body.as_str()).collect();
        assert_eq!(kept, ["", r#"{"first":1}"#, "", ""]);
        assert!(r.iter().all(|q| q.unread.is_none()));
        assert_eq!(r[3].size, 4 << 20);
    }
}
