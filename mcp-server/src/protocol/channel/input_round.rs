//! One round of a 2026-07-28 request whose handler asks the client
//! questions (multi-round-trip requests): the answers the client gave, and
//! the questions still open (see [`super::interaction`]).

use std::collections::BTreeMap;
use std::future::Future;
use std::hash::{BuildHasher, RandomState};
use std::pin::pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::task::Poll;

use mcp_core::client::ChannelError;
use rmcp::ErrorData;
use rmcp::model::{InputRequest, InputRequiredResult};
use rmcp::service::{RequestContext, RoleServer};
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::protocol::version::is_modern;
use crate::store::{hex, unhex};

/// A `requestState` that this process did not issue, or that was changed.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
#[error("requestState failed its integrity check: {0}")]
pub(crate) struct TamperedState(&'static str);

/// How a `requestState` is sealed against changes.
#[derive(Clone, Debug, Default)]
pub(crate) enum Seal {
    /// With this process's random key: only this process can open it.
    #[default]
    Local,
    /// With HMAC-SHA256 under a secret all replicas share, so a round begun
    /// on one replica continues on any other.
    #[cfg(feature = "redis")]
    Shared([u8; 32]),
}

impl Seal {
    /// The seal of a store's shared secret, or [`Seal::Local`] without one.
    pub(crate) fn of(secret: Option<[u8; 32]>) -> Self {
        match secret {
            #[cfg(feature = "redis")]
            Some(secret) => Seal::Shared(secret),
            _ => Seal::Local,
        }
    }
}

/// One round of a request: the answers so far and the questions asked.
#[derive(Debug, Default)]
pub(crate) struct InputRound {
    seal: Seal,
    answers: BTreeMap<String, Value>,
    questions: Mutex<BTreeMap<String, Value>>,
    counter: AtomicUsize,
    /// A capability the handler needed but the client did not declare.
    missing: Mutex<Option<&'static str>>,
}

impl InputRound {
    /// The round of a request carrying `input_responses` and the
    /// `request_state` of an earlier round (checked and unsealed).
    pub(crate) fn open(
        input_responses: Option<&BTreeMap<String, Value>>,
        request_state: Option<&str>,
        seal: Seal,
    ) -> Result<Self, TamperedState> {
        let mut answers = match request_state {
            Some(state) => unseal(state, &seal)?,
            None => BTreeMap::new(),
        };
        for (key, value) in input_responses.into_iter().flatten() {
            answers.insert(key.clone(), value.clone());
        }
        Ok(Self {
            seal,
            answers,
            ..Self::default()
        })
    }

    /// The answer to `request` (a `{"method", "params"}` object) under
    /// `key` (or `{kind}-{n}`, numbered in asking order), or a future that
    /// never completes after noting the question. An answer of the wrong
    /// shape counts as none, so the question is asked again.
    pub(crate) async fn ask<T: DeserializeOwned>(
        &self,
        key: Option<String>,
        kind: &str,
        request: Value,
    ) -> Result<T, ChannelError> {
        let number = self.counter.fetch_add(1, Ordering::Relaxed);
        let key = key.unwrap_or_else(|| format!("{kind}-{number}"));
        if let Some(answer) = self.answers.get(&key) {
            match serde_json::from_value(answer.clone()) {
                Ok(answer) => return Ok(answer),
                Err(error) => {
                    tracing::debug!(%key, %error, "an input response has the wrong shape; asking again")
                }
            }
        }
        self.questions
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(key, request);
        std::future::pending().await
    }

    /// Notes that the handler needed `capability`, which the client did not
    /// declare.
    pub(crate) fn note_missing(&self, capability: &'static str) {
        *self.missing.lock().unwrap_or_else(PoisonError::into_inner) = Some(capability);
    }

    /// JSON-RPC error -32021 naming the undeclared capability the handler
    /// needed, if it needed one.
    pub(crate) fn missing_capability_error(&self) -> Option<ErrorData> {
        let capability = (*self.missing.lock().unwrap_or_else(PoisonError::into_inner))?;
        let required = serde_json::from_value(serde_json::json!({ capability: {} })).ok()?;
        Some(ErrorData::missing_required_client_capability(required))
    }

    /// The input-required result for the open questions, if any.
    pub(crate) fn input_required(&self) -> Option<InputRequiredResult> {
        let questions = self
            .questions
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if questions.is_empty() {
            return None;
        }
        let requests: BTreeMap<String, InputRequest> = questions
            .iter()
            .filter_map(
                |(key, request)| match serde_json::from_value(request.clone()) {
                    Ok(request) => Some((key.clone(), request)),
                    Err(error) => {
                        tracing::error!(%key, %error, "an input request has no rmcp equivalent");
                        None
                    }
                },
            )
            .collect();
        Some(InputRequiredResult::new(
            Some(requests),
            Some(seal(&self.answers, &self.seal)),
        ))
    }
}

/// The input round of a request from a 2026-07-28 client (none for older
/// ones): the answers it carries (`inputResponses` plus those sealed in
/// `requestState`). A `requestState` that fails its integrity check is
/// JSON-RPC error -32602. `seal` gives the server's [`Seal`] (asked only
/// of a 2026-07-28 request).
pub(crate) async fn input_round(
    context: &RequestContext<RoleServer>,
    input_responses: Option<&BTreeMap<String, Value>>,
    request_state: Option<&str>,
    seal: impl Future<Output = Result<Seal, ErrorData>>,
) -> Result<Option<Arc<InputRound>>, ErrorData> {
    if !is_modern(context) {
        return Ok(None);
    }
    InputRound::open(input_responses, request_state, seal.await?)
        .map(|round| Some(Arc::new(round)))
        .map_err(|error| ErrorData::invalid_params(error.to_string(), None))
}

/// Runs `handler` until it completes, or (in a round) until it waits only
/// for answers the client has not given: then the input-required result
/// listing the questions, and the handler is dropped.
pub(crate) async fn until_input_required<T>(
    round: Option<Arc<InputRound>>,
    handler: impl Future<Output = T>,
) -> Result<T, InputRequiredResult> {
    let mut handler = pin!(handler);
    std::future::poll_fn(|cx| match handler.as_mut().poll(cx) {
        Poll::Ready(value) => Poll::Ready(Ok(value)),
        Poll::Pending => match round.as_ref().and_then(|round| round.input_required()) {
            Some(required) => Poll::Ready(Err(required)),
            None => Poll::Pending,
        },
    })
    .await
}

/// The per-process key of `requestState` tags: a random SipHash key.
fn key() -> &'static RandomState {
    static KEY: OnceLock<RandomState> = OnceLock::new();
    KEY.get_or_init(RandomState::new)
}

/// The tag of `payload` under `seal`, in hex.
fn tag(payload: &str, seal: &Seal) -> String {
    match seal {
        Seal::Local => format!("{:016x}", key().hash_one(payload)),
        #[cfg(feature = "redis")]
        Seal::Shared(secret) => shared_mac(secret, payload)
            .map(|mac| hex(&hmac::Mac::finalize(mac).into_bytes()))
            .unwrap_or_default(),
    }
}

/// Whether `tag_text` is the tag of `payload` under `seal` (compared in
/// constant time for a shared secret).
fn tag_matches(payload: &str, tag_text: &str, seal: &Seal) -> bool {
    match seal {
        Seal::Local => tag(payload, seal) == tag_text,
        #[cfg(feature = "redis")]
        Seal::Shared(secret) => match (shared_mac(secret, payload), unhex(tag_text)) {
            (Some(mac), Some(tag)) => hmac::Mac::verify_slice(mac, &tag).is_ok(),
            _ => false,
        },
    }
}

/// HMAC-SHA256 of `payload` under `secret`.
#[cfg(feature = "redis")]
fn shared_mac(secret: &[u8; 32], payload: &str) -> Option<hmac::Hmac<sha2::Sha256>> {
    use hmac::{KeyInit, Mac};
    let mut mac = <hmac::Hmac<sha2::Sha256> as KeyInit>::new_from_slice(secret).ok()?;
    mac.update(payload.as_bytes());
    Some(mac)
}

/// `hex(json(answers)).tag`.
fn seal(answers: &BTreeMap<String, Value>, seal_with: &Seal) -> String {
    let json = serde_json::to_string(answers).unwrap_or_else(|_| "{}".to_owned());
    let payload = hex(json.as_bytes());
    let tag = tag(&payload, seal_with);
    format!("{payload}.{tag}")
}

fn unseal(state: &str, seal: &Seal) -> Result<BTreeMap<String, Value>, TamperedState> {
    let (payload, tag_text) = state.rsplit_once('.').ok_or(TamperedState("no tag"))?;
    if !tag_matches(payload, tag_text, seal) {
        return Err(TamperedState("the tag does not match"));
    }
    let bytes = unhex(payload).ok_or(TamperedState("the payload is not hex"))?;
    serde_json::from_slice(&bytes).map_err(|_| TamperedState("the payload is not the answers"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seals() -> Vec<Seal> {
        vec![
            Seal::Local,
            #[cfg(feature = "redis")]
            Seal::Shared([7; 32]),
        ]
    }

    #[test]
    fn sealed_state_round_trips_and_rejects_tampering() {
        for with in seals() {
            let answers =
                BTreeMap::from([("a".to_owned(), serde_json::json!({"action": "accept"}))]);
            let sealed = seal(&answers, &with);
            assert_eq!(unseal(&sealed, &with).unwrap(), answers);
            let mut tampered = sealed.clone();
            tampered.replace_range(0..2, "7b");
            tampered.replace_range(2..4, "7d");
            assert!(unseal(&tampered, &with).is_err());
            assert!(unseal("garbage", &with).is_err());
        }
    }

    #[cfg(feature = "redis")]
    #[test]
    fn only_the_same_secret_opens_a_shared_seal() {
        let answers = BTreeMap::from([("a".to_owned(), serde_json::json!(1))]);
        let sealed = seal(&answers, &Seal::Shared([1; 32]));
        assert_eq!(unseal(&sealed, &Seal::Shared([1; 32])).unwrap(), answers);
        assert!(unseal(&sealed, &Seal::Shared([2; 32])).is_err());
        assert!(unseal(&sealed, &Seal::Local).is_err());
    }

    #[test]
    fn questions_without_answers_make_an_input_required_result() {
        let round = InputRound::open(None, None, Seal::Local).unwrap();
        assert!(round.input_required().is_none());
        let request = serde_json::json!({"method": "roots/list", "params": {}});
        let waiting = round.ask::<Value>(Some("client_roots".into()), "roots", request);
        let mut waiting = std::pin::pin!(waiting);
        let waker = std::task::Waker::noop();
        assert!(
            waiting
                .as_mut()
                .poll(&mut std::task::Context::from_waker(waker))
                .is_pending()
        );
        let required = round.input_required().unwrap();
        assert!(
            required
                .input_requests
                .unwrap()
                .contains_key("client_roots")
        );
    }
}
