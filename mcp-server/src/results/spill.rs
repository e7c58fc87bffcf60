//! Whole results that were cut, kept for a while so the session that got
//! the cut one can read them with `resources/read`.

use std::collections::VecDeque;
use std::collections::hash_map::RandomState;
use std::hash::BuildHasher;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// The URI prefix of a kept result.
pub(crate) const URI_PREFIX: &str = "mcp-toolkit://results/";
/// How long a whole result stays readable.
pub(crate) const KEPT_FOR: Duration = Duration::from_secs(600);
/// The bytes of whole results kept at once; the oldest go first.
const KEPT_BYTES: usize = 64 * 1024 * 1024;
/// The largest whole result kept.
pub(crate) const LARGEST_KEPT: usize = 16 * 1024 * 1024;

/// One whole result.
struct Kept {
    id: String,
    /// The session that may read it (`None`: whoever has the id).
    owner: Option<String>,
    text: Arc<str>,
    until: Instant,
}

/// The whole results kept, oldest first.
#[derive(Default)]
pub(crate) struct KeptResults {
    kept: Mutex<VecDeque<Kept>>,
    ids: IdSource,
}

impl KeptResults {
    /// Keeps `text` for the session `owner`; its URI, or `None` when it is
    /// too large to keep.
    pub(crate) fn keep(&self, owner: Option<&str>, text: String) -> Option<String> {
        if text.len() > LARGEST_KEPT {
            return None;
        }
        let id = self.ids.next();
        let now = Instant::now();
        let mut kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        kept.retain(|entry| entry.until > now);
        let mut bytes: usize =
            kept.iter().map(|entry| entry.text.len()).sum::<usize>() + text.len();
        while bytes > KEPT_BYTES {
            match kept.pop_front() {
                Some(oldest) => bytes -= oldest.text.len(),
                None => break,
            }
        }
        kept.push_back(Kept {
            id: id.clone(),
            owner: owner.map(str::to_owned),
            text: text.into(),
            until: now + KEPT_FOR,
        });
        Some(format!("{URI_PREFIX}{id}"))
    }

    /// The whole result at `uri` for the session `owner`, if it is still
    /// kept and theirs.
    pub(crate) fn read(&self, uri: &str, owner: Option<&str>) -> Option<Arc<str>> {
        let id = uri.strip_prefix(URI_PREFIX)?;
        let now = Instant::now();
        let kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        kept.iter()
            .find(|entry| entry.id == id && entry.until > now)
            .filter(|entry| entry.owner.is_none() || entry.owner.as_deref() == owner)
            .map(|entry| entry.text.clone())
    }
}

/// Ids nobody can guess: a counter hashed with two random keys.
struct IdSource {
    count: AtomicU64,
    keys: (RandomState, RandomState),
}

impl Default for IdSource {
    fn default() -> Self {
        Self {
            count: AtomicU64::new(0),
            keys: (RandomState::new(), RandomState::new()),
        }
    }
}

impl IdSource {
    fn next(&self) -> String {
        let count = self.count.fetch_add(1, Ordering::Relaxed);
        let high = self.keys.0.hash_one(count);
        let low = self.keys.1.hash_one(count);
        format!("{high:016x}{low:016x}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kept_result_is_read_by_its_session_only() {
        let results = KeptResults::default();
        let uri = results.keep(Some("s1"), "[1,2,3]".into()).unwrap();
        assert!(uri.starts_with(URI_PREFIX));
        assert_eq!(results.read(&uri, Some("s1")).as_deref(), Some("[1,2,3]"));
        assert_eq!(results.read(&uri, Some("s2")), None);
        assert_eq!(results.read("mcp-toolkit://results/nope", Some("s1")), None);
        let open = results.keep(None, "{}".into()).unwrap();
        assert_ne!(open, uri);
        assert_eq!(results.read(&open, Some("anyone")).as_deref(), Some("{}"));
    }
}
