//! Compiled forms of schemas (argument checks, output validators) kept for
//! the tools used most recently.
//!
//! A server of a large API holds thousands of tools, and a compiled schema
//! holds every definition the schema reaches: kept per tool, they would
//! cost tools × shared definitions. Each tool's form is made on its first
//! use and kept in a [`CompiledCache`], which holds at most a bound of them
//! (by the size of their schemas) and drops the least recently used first.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use lru::LruCache;

/// Compiled forms of type `T`, each under the [`CacheSlot`] of the thing it
/// was made for, within a total weight (the sizes of their schemas, in
/// bytes of JSON). The form used last is always kept, whatever its weight.
///
/// ```
/// use std::sync::LazyLock;
/// use mcp_core::schema::compiled::CompiledCache;
///
/// static LENGTHS: LazyLock<CompiledCache<usize>> = LazyLock::new(|| CompiledCache::new(10));
///
/// let a = LENGTHS.slot();
/// let b = LENGTHS.slot();
/// assert_eq!(*a.get_or_make(|| (6, "abcdef".len())), 6);
/// assert_eq!(*a.get_or_make(|| unreachable!("kept")), 6);
/// assert_eq!(*b.get_or_make(|| (6, 99)), 99);
/// // 12 bytes do not fit in 10: `a`, used least recently, was dropped.
/// assert_eq!(LENGTHS.len(), 1);
/// assert_eq!(*a.get_or_make(|| (6, 7)), 7);
/// ```
#[derive(Debug)]
pub struct CompiledCache<T> {
    entries: Mutex<Entries<T>>,
    next_slot: AtomicU64,
    max_weight: usize,
}

#[derive(Debug)]
struct Entries<T> {
    by_slot: LruCache<u64, (Arc<T>, usize)>,
    weight: usize,
}

impl<T> CompiledCache<T> {
    /// A cache holding forms whose weights add up to at most `max_weight`.
    pub fn new(max_weight: usize) -> Self {
        Self {
            entries: Mutex::new(Entries {
                by_slot: LruCache::unbounded(),
                weight: 0,
            }),
            next_slot: AtomicU64::new(0),
            max_weight,
        }
    }

    /// A slot of its own in this cache, for one thing's compiled form; the
    /// form is dropped with the slot.
    pub fn slot(&'static self) -> CacheSlot<T> {
        CacheSlot {
            id: self.next_slot.fetch_add(1, Ordering::Relaxed),
            cache: self,
        }
    }

    /// How many forms the cache holds.
    pub fn len(&self) -> usize {
        self.lock().by_slot.len()
    }

    /// Whether the cache holds no form.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The sum of the weights of the forms held.
    pub fn weight(&self) -> usize {
        self.lock().weight
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Entries<T>> {
        self.entries.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn get(&self, id: u64) -> Option<Arc<T>> {
        self.lock().by_slot.get(&id).map(|(form, _)| form.clone())
    }

    fn insert(&self, id: u64, form: Arc<T>, weight: usize) {
        let mut entries = self.lock();
        if let Some((_, old)) = entries.by_slot.put(id, (form, weight)) {
            entries.weight -= old;
        }
        entries.weight += weight;
        while entries.weight > self.max_weight && entries.by_slot.len() > 1 {
            match entries.by_slot.pop_lru() {
                Some((_, (_, dropped))) => entries.weight -= dropped,
                None => break,
            }
        }
    }

    fn remove(&self, id: u64) {
        let mut entries = self.lock();
        if let Some((_, weight)) = entries.by_slot.pop(&id) {
            entries.weight -= weight;
        }
    }
}

/// One thing's place in a [`CompiledCache`].
#[derive(Debug)]
pub struct CacheSlot<T: 'static> {
    id: u64,
    cache: &'static CompiledCache<T>,
}

impl<T> CacheSlot<T> {
    /// The compiled form of this slot: the one kept, else the one `make`
    /// gives with its weight (made outside the cache's lock: two first
    /// calls at once may both make it).
    pub fn get_or_make(&self, make: impl FnOnce() -> (usize, T)) -> Arc<T> {
        if let Some(form) = self.cache.get(self.id) {
            return form;
        }
        let (weight, form) = make();
        let form = Arc::new(form);
        self.cache.insert(self.id, form.clone(), weight);
        form
    }
}

impl<T> Drop for CacheSlot<T> {
    fn drop(&mut self) {
        self.cache.remove(self.id);
    }
}

#[cfg(test)]
mod tests {
    use std::sync::LazyLock;

    use super::*;

    static CACHE: LazyLock<CompiledCache<String>> = LazyLock::new(|| CompiledCache::new(100));

    #[test]
    fn forms_are_dropped_least_recently_used_first_and_with_their_slot() {
        let slots: Vec<CacheSlot<String>> = (0..3).map(|_| CACHE.slot()).collect();
        for (n, slot) in slots.iter().enumerate() {
            slot.get_or_make(|| (30, n.to_string()));
        }
        assert_eq!(CACHE.weight(), 90);
        // The first slot, used again, outlives the second.
        slots[0].get_or_make(|| unreachable!("kept"));
        let extra = CACHE.slot();
        extra.get_or_make(|| (30, "extra".to_owned()));
        assert_eq!(*slots[0].get_or_make(|| unreachable!("kept")), "0");
        assert_eq!(*slots[1].get_or_make(|| (30, "again".to_owned())), "again");
        assert!(CACHE.weight() <= 100);
        drop(slots);
        drop(extra);
        assert!(CACHE.is_empty());
    }

    #[test]
    fn a_form_heavier_than_the_bound_is_still_kept_alone() {
        static SMALL: LazyLock<CompiledCache<u8>> = LazyLock::new(|| CompiledCache::new(1));
        let slot = SMALL.slot();
        slot.get_or_make(|| (1_000, 1));
        assert_eq!(*slot.get_or_make(|| unreachable!("kept")), 1);
    }
}
