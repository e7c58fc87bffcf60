//! Reloading what `serve` serves: on SIGHUP (Unix) and, with `--watch`,
//! when a file the flags name changes. A reload runs
//! [`tool_sources`](super::openapi::tool_sources) again and swaps the result
//! in with [`Server::replace_sources`]; when that fails, the server keeps
//! its tools and one error line is logged.

use std::collections::BTreeSet;
use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use mcp_server::{ListChanges, Server};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tokio::time::{Instant, timeout, timeout_at};

use super::args::SpecArgs;
use super::error::CliError;
use super::openapi;
use super::watch::{FileWatcher, watch};

/// How long the files must stay quiet before a reload: editors save in
/// several writes, and one save should make one reload.
const QUIET: Duration = Duration::from_millis(300);

/// The longest a reload waits for quiet once something changed.
const AT_MOST: Duration = Duration::from_secs(2);

/// Why a reload runs.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Trigger {
    /// A watched file changed.
    Changed(PathBuf),
    /// The process received SIGHUP.
    Hangup,
}

impl fmt::Display for Trigger {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Changed(path) => write!(f, "`{}` changed", path.display()),
            Self::Hangup => f.write_str("SIGHUP"),
        }
    }
}

/// Reloads `server` until dropped.
#[derive(Debug)]
pub(crate) struct Reloading {
    _watcher: Option<FileWatcher>,
    tasks: Vec<JoinHandle<()>>,
}

impl Drop for Reloading {
    fn drop(&mut self) {
        for task in &self.tasks {
            task.abort();
        }
    }
}

/// Starts reloading `server` from `specs`: on SIGHUP (Unix), and when a file
/// of [`SpecArgs::watched_paths`] changes if `watch_files`. Watching begins
/// before this returns, so a change made after it is never missed.
pub(crate) fn start(
    server: Server,
    specs: SpecArgs,
    watch_files: bool,
) -> Result<Reloading, CliError> {
    let (triggers, received) = mpsc::unbounded_channel();
    let watcher = if watch_files {
        let triggers = triggers.clone();
        let paths = specs.watched_paths();
        Some(watch(&paths, move |path| {
            let _ = triggers.send(Trigger::Changed(path.to_owned()));
        })?)
    } else {
        None
    };
    #[cfg(unix)]
    let hangups = Some(forward_hangups(triggers)?);
    #[cfg(not(unix))]
    let hangups = {
        drop(triggers);
        None
    };
    let reloads = tokio::spawn(reload_on(received, server, Arc::new(specs)));
    Ok(Reloading {
        _watcher: watcher,
        tasks: hangups.into_iter().chain([reloads]).collect(),
    })
}

/// Sends a trigger for each SIGHUP (the handler is installed now).
#[cfg(unix)]
fn forward_hangups(triggers: mpsc::UnboundedSender<Trigger>) -> Result<JoinHandle<()>, CliError> {
    use tokio::signal::unix::{SignalKind, signal};
    let mut hangups = signal(SignalKind::hangup()).map_err(CliError::Hangup)?;
    Ok(tokio::spawn(async move {
        while hangups.recv().await.is_some() {
            if triggers.send(Trigger::Hangup).is_err() {
                break;
            }
        }
    }))
}

/// Reloads once per burst of triggers.
async fn reload_on(
    mut triggers: mpsc::UnboundedReceiver<Trigger>,
    server: Server,
    specs: Arc<SpecArgs>,
) {
    while let Some(first) = triggers.recv().await {
        let reasons = settle(first, &mut triggers).await;
        reload(&server, &specs, &reasons).await;
    }
}

/// Collects the triggers that follow `first` until none came for [`QUIET`]
/// (or [`AT_MOST`] passed); says what they were.
async fn settle(first: Trigger, triggers: &mut mpsc::UnboundedReceiver<Trigger>) -> String {
    let deadline = Instant::now() + AT_MOST;
    let mut reasons = BTreeSet::from([first]);
    while let Ok(Ok(Some(trigger))) = timeout_at(deadline, timeout(QUIET, triggers.recv())).await {
        reasons.insert(trigger);
    }
    let reasons: Vec<String> = reasons.iter().map(Trigger::to_string).collect();
    reasons.join(", ")
}

/// Regenerates the tools and swaps them in, or logs one line saying why not.
async fn reload(server: &Server, specs: &Arc<SpecArgs>, reasons: &str) {
    tracing::info!("reloading the tools ({reasons})");
    let generating = {
        let server = server.clone();
        let specs = specs.clone();
        tokio::task::spawn_blocking(move || {
            let sources = openapi::tool_sources(&specs)?;
            Ok::<_, CliError>(server.replace_sources(sources)?)
        })
    };
    let outcome = match generating.await {
        Ok(outcome) => outcome.map_err(|error| error.to_string()),
        Err(error) => Err(format!("generating the tools failed: {error}")),
    };
    match outcome {
        Ok(changes) => tracing::info!(
            "reloaded the tools ({reasons}): {} tools, {} resources; {}",
            server.tools().len(),
            server.resources().len(),
            told(changes)
        ),
        Err(error) => tracing::error!(
            "reload failed ({reasons}), still serving the previous tools: {}",
            one_line(&error)
        ),
    }
}

/// What the clients were told.
fn told(changes: ListChanges) -> &'static str {
    match (changes.tools, changes.resources) {
        (false, false) => "nothing changed for clients",
        (true, false) => "clients were told the tool list changed",
        (false, true) => "clients were told the resource list changed",
        (true, true) => "clients were told the tool and resource lists changed",
    }
}

/// The first line of `message`: parser messages go on with a picture of
/// the offending lines, which the first line already locates.
fn one_line(message: &str) -> &str {
    message
        .lines()
        .map(str::trim)
        .find(|line| !line.is_empty())
        .unwrap_or("no reason given")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_become_one_line() {
        assert_eq!(
            one_line("\napi.yaml: line 2 column 17: unclosed bracket\n --> <input>:2:17\n  |\n"),
            "api.yaml: line 2 column 17: unclosed bracket"
        );
        assert_eq!(one_line(""), "no reason given");
    }

    #[tokio::test(start_paused = true)]
    async fn a_burst_of_triggers_settles_into_one_reason_list() {
        let (send, mut received) = mpsc::unbounded_channel();
        let burst = tokio::spawn(async move {
            for _ in 0..3 {
                send.send(Trigger::Changed(PathBuf::from("api.yaml")))
                    .unwrap();
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            send.send(Trigger::Hangup).unwrap();
            // Past the quiet period: the next burst.
            tokio::time::sleep(QUIET * 2).await;
            send.send(Trigger::Hangup).unwrap();
        });
        let first = received.recv().await.unwrap();
        assert_eq!(
            settle(first, &mut received).await,
            "`api.yaml` changed, SIGHUP"
        );
        let next = received.recv().await.unwrap();
        assert_eq!(settle(next, &mut received).await, "SIGHUP");
        burst.await.unwrap();
    }

    #[tokio::test(start_paused = true)]
    async fn a_stream_of_triggers_reloads_after_at_most_a_while() {
        let (send, mut received) = mpsc::unbounded_channel();
        let started = Instant::now();
        let stream = tokio::spawn(async move {
            while send.send(Trigger::Hangup).is_ok() {
                tokio::time::sleep(QUIET / 2).await;
            }
        });
        let first = received.recv().await.unwrap();
        settle(first, &mut received).await;
        assert!(started.elapsed() <= AT_MOST + QUIET);
        drop(received);
        stream.await.unwrap();
    }
}
