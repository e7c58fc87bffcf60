//! Values the serving layers keep with the server state without the state
//! knowing their types.

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

/// At most one value per type, made on first use and shared from then on.
///
/// The protocol layer keeps here what must outlive a session (the running
/// tasks) or is worth computing once (the tools in its own form), so the
/// state it reads never has to name the protocol's types.
#[derive(Default)]
pub(crate) struct Attachments {
    values: Mutex<HashMap<TypeId, Arc<dyn Any + Send + Sync>>>,
}

impl Attachments {
    /// The value of type `T`, made with `make` if there is none yet.
    /// `make` runs at most once per type and must not use these attachments.
    pub(crate) fn get_or_insert_with<T: Any + Send + Sync>(
        &self,
        make: impl FnOnce() -> T,
    ) -> Arc<T> {
        let mut values = self.values.lock().unwrap_or_else(PoisonError::into_inner);
        let existing = values
            .get(&TypeId::of::<T>())
            .and_then(|value| Arc::clone(value).downcast::<T>().ok());
        if let Some(value) = existing {
            return value;
        }
        let value = Arc::new(make());
        values.insert(TypeId::of::<T>(), value.clone());
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_type_is_made_once() {
        let attachments = Attachments::default();
        let first = attachments.get_or_insert_with(|| 1_u32);
        let again = attachments.get_or_insert_with(|| 2_u32);
        assert!(Arc::ptr_eq(&first, &again));
        assert_eq!(*attachments.get_or_insert_with(|| "text"), "text");
        assert_eq!(*attachments.get_or_insert_with(|| 3_u32), 1);
    }
}
