//! A raw Streamable HTTP client: JSON-RPC requests as POSTs, answers as
//! JSON or as an SSE stream, the session id and protocol version headers.

use serde_json::{Value, json};

use crate::support::meta_2026;

/// The protocol generation a client speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Version {
    /// 2025-11-25: `initialize` first, then the session's id on every request.
    V2025,
    /// 2026-07-28: every request stands alone, with its `_meta`.
    V2026,
}

impl Version {
    /// The version string.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Self::V2025 => "2025-11-25",
            Self::V2026 => "2026-07-28",
        }
    }
}

/// One server-sent event.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Event {
    /// Its `id:` field, if any.
    pub(crate) id: Option<String>,
    /// Its `data:` as JSON, if it is JSON.
    pub(crate) data: Option<Value>,
}

/// Parses a complete or partial `text/event-stream` body.
pub(crate) fn events(body: &str) -> Vec<Event> {
    let mut events = Vec::new();
    let (mut id, mut data) = (None, String::new());
    for line in body.lines() {
        if line.is_empty() {
            if id.is_some() || !data.is_empty() {
                events.push(Event {
                    id: id.take(),
                    data: serde_json::from_str(&data).ok(),
                });
            }
            data.clear();
        } else if let Some(value) = line.strip_prefix("id:") {
            id = Some(value.trim().to_owned());
        } else if let Some(value) = line.strip_prefix("data:") {
            data.push_str(value.trim_start());
        }
    }
    events
}

/// A client of one MCP endpoint.
#[derive(Debug)]
pub(crate) struct McpHttp {
    http: reqwest::Client,
    url: String,
    version: Version,
    session: Option<String>,
    next_id: i64,
    tasks_extension: bool,
    upstream: Option<String>,
}

impl McpHttp {
    /// A client speaking `version`; a 2025-11-25 one initializes first.
    pub(crate) async fn connect(
        http: reqwest::Client,
        url: &str,
        version: Version,
    ) -> Result<Self, String> {
        let mut client = Self {
            http,
            url: url.to_owned(),
            version,
            session: None,
            next_id: 1,
            tasks_extension: false,
            upstream: None,
        };
        if version == Version::V2025 {
            let reply = client
                .post(
                    &json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
                        "protocolVersion": "2025-11-25",
                        "capabilities": {},
                        "clientInfo": {"name": "raw", "version": "0"}
                    }}),
                )
                .await?;
            client.session = reply.session;
            answer(&reply.messages, 0)?;
            client
                .post(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
                .await?;
        }
        Ok(client)
    }

    /// A 2026-07-28 client that declares the tasks extension (so the server
    /// may answer a call with a task).
    pub(crate) fn with_tasks_extension(mut self) -> Self {
        self.tasks_extension = true;
        self
    }

    /// The same client, sending to `url` (another replica, say).
    pub(crate) fn at(&self, url: &str) -> Self {
        Self {
            http: self.http.clone(),
            url: url.to_owned(),
            version: self.version,
            session: self.session.clone(),
            next_id: self.next_id + 1000,
            tasks_extension: self.tasks_extension,
            upstream: None,
        }
    }

    /// The replica (`127.0.0.1:PORT`) nginx sent the last request to.
    pub(crate) fn upstream(&self) -> Option<&str> {
        self.upstream.as_deref()
    }

    /// A request builder with this client's headers.
    pub(crate) fn builder(&self, method: reqwest::Method) -> reqwest::RequestBuilder {
        let mut builder = self
            .http
            .request(method, &self.url)
            .header("accept", "application/json, text/event-stream");
        if self.version == Version::V2026 || self.session.is_some() {
            builder = builder.header("mcp-protocol-version", self.version.as_str());
        }
        if let Some(session) = &self.session {
            builder = builder.header("mcp-session-id", session);
        }
        builder
    }

    /// The JSON-RPC request `method` with `params` (plus the 2026-07-28
    /// `_meta`) and the id it was given.
    pub(crate) fn message(&mut self, method: &str, mut params: Value) -> (Value, i64) {
        if self.version == Version::V2026 {
            let meta = params
                .as_object_mut()
                .map(|params| params.entry("_meta").or_insert_with(|| json!({})));
            let mut required = meta_2026();
            if self.tasks_extension {
                required["io.modelcontextprotocol/clientCapabilities"] =
                    json!({"extensions": {"io.modelcontextprotocol/tasks": {}}});
            }
            if let Some(Value::Object(meta)) = meta
                && let Value::Object(required) = required
            {
                meta.extend(required);
            }
        }
        let id = self.next_id;
        self.next_id += 1;
        (
            json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}),
            id,
        )
    }

    /// Sends `method` and returns its result, or the error as text.
    pub(crate) async fn request(&mut self, method: &str, params: Value) -> Result<Value, String> {
        let (message, id) = self.message(method, params);
        let reply = self.post(&message).await?;
        answer(&reply.messages, id)
    }

    /// Calls tool `name`; a result with `isError` is an error.
    pub(crate) async fn call_tool(
        &mut self,
        name: &str,
        arguments: Value,
    ) -> Result<Value, String> {
        let result = self
            .request("tools/call", json!({"name": name, "arguments": arguments}))
            .await?;
        if result["isError"] == json!(true) {
            return Err(format!("{name} failed: {result}"));
        }
        Ok(result)
    }

    /// POSTs one message and returns the response as it starts (its body
    /// still streaming).
    pub(crate) async fn open(&mut self, message: &Value) -> Result<reqwest::Response, String> {
        let mut builder = self.builder(reqwest::Method::POST);
        if self.version == Version::V2026
            && let Some(method) = message["method"].as_str()
        {
            // 2026-07-28 repeats the method and what it names (a tool,
            // prompt, task or resource) in headers.
            builder = builder.header("mcp-method", method);
            let params = &message["params"];
            let named = ["name", "taskId", "uri"]
                .iter()
                .find_map(|field| params[*field].as_str());
            if let Some(name) = named {
                builder = builder.header("mcp-name", name);
            }
        }
        let response = builder
            .json(message)
            .send()
            .await
            .map_err(|error| format!("POST failed: {error}"))?;
        self.upstream = response
            .headers()
            .get("x-upstream")
            .and_then(|value| value.to_str().ok())
            .map(str::to_owned);
        Ok(response)
    }

    /// POSTs one message and reads the whole answer.
    async fn post(&mut self, message: &Value) -> Result<Reply, String> {
        let response = self.open(message).await?;
        let status = response.status();
        let session = response
            .headers()
            .get("mcp-session-id")
            .and_then(|value| value.to_str().ok())
            .map(str::to_owned);
        let stream = response
            .headers()
            .get("content-type")
            .and_then(|value| value.to_str().ok())
            .is_some_and(|value| value.starts_with("text/event-stream"));
        let body = response
            .text()
            .await
            .map_err(|error| format!("reading the answer failed: {error}"))?;
        if !status.is_success() {
            return Err(format!("HTTP {status}: {body}"));
        }
        let messages = if stream {
            events(&body)
                .into_iter()
                .filter_map(|event| event.data)
                .collect()
        } else if body.trim().is_empty() {
            Vec::new()
        } else {
            vec![serde_json::from_str(&body).map_err(|error| format!("{error}: {body}"))?]
        };
        Ok(Reply { session, messages })
    }
}

/// What one POST brought back.
#[derive(Debug)]
struct Reply {
    session: Option<String>,
    messages: Vec<Value>,
}

/// The result of the response with `id` among `messages`.
fn answer(messages: &[Value], id: i64) -> Result<Value, String> {
    let response = messages
        .iter()
        .find(|message| message["id"] == json!(id))
        .ok_or_else(|| format!("no response to request {id} in {messages:?}"))?;
    match (response.get("result"), response.get("error")) {
        (Some(result), _) => Ok(result.clone()),
        (None, Some(error)) => Err(format!("request {id} failed: {error}")),
        (None, None) => Err(format!("neither result nor error: {response}")),
    }
}
