//! Tests of session eviction: who gives way at the cap, and the unused grace.

use super::*;

fn id(text: &str) -> Arc<str> {
    Arc::from(text)
}

#[test]
fn unused_sessions_give_way_first_then_the_longest_idle() {
    let book = Arc::new(Book::default());
    let t0 = Instant::now();
    drop(book.open(id("a"), false));
    drop(book.open(id("b"), false));
    drop(book.open(id("c"), false));
    // `a` and `c` are used; `b` never is.
    drop(book.begin(&id("a"), true));
    drop(book.begin(&id("c"), true));
    // `a` again, so `c` is now the used one idle longest.
    drop(book.begin(&id("a"), true));
    let later = t0 + Duration::from_secs(5);
    let order: Vec<_> = std::iter::from_fn(|| book.pop_victim(later))
        .map(|victim| (victim.id.to_string(), victim.unused))
        .collect();
    assert_eq!(
        order,
        [
            ("b".to_owned(), true),
            ("c".to_owned(), false),
            ("a".to_owned(), false)
        ]
    );
    assert!(!book.knows("a") && !book.knows("b") && !book.knows("c"));
}

#[test]
fn busy_sessions_never_give_way() {
    let book = Arc::new(Book::default());
    let stream = book.open(id("a"), false);
    let call = book.begin(&id("a"), true);
    assert!(book.pop_victim(Instant::now()).is_none());
    drop(stream);
    assert!(
        book.pop_victim(Instant::now()).is_none(),
        "a call is in flight"
    );
    drop(call);
    let victim = book.pop_victim(Instant::now()).unwrap();
    assert_eq!((&*victim.id, victim.unused), ("a", false));
}

#[test]
fn only_unused_sessions_past_the_grace_expire() {
    let book = Arc::new(Book::default());
    drop(book.open(id("old"), false));
    drop(book.open(id("used"), false));
    drop(book.begin(&id("used"), true));
    let now = Instant::now();
    assert!(
        book.pop_unused_idle_for(Duration::from_secs(60), now, 10)
            .is_empty()
    );
    let expired = book.pop_unused_idle_for(Duration::ZERO, now + Duration::from_secs(1), 10);
    assert_eq!(expired.len(), 1);
    assert_eq!(&*expired[0].id, "old");
    assert!(book.knows("used") && !book.knows("old"));
}

#[test]
fn a_guard_of_a_forgotten_entry_leaves_its_successor_alone() {
    let book = Arc::new(Book::default());
    let old = book.open(id("a"), true);
    book.forget(&id("a"));
    let new = book.open(id("a"), false);
    drop(old);
    assert!(book.pop_victim(Instant::now()).is_none(), "still busy");
    drop(new);
    assert!(book.pop_victim(Instant::now()).is_some());
}

#[test]
fn settling_forgets_ended_sessions_and_renews_live_ones() {
    let book = Arc::new(Book::default());
    drop(book.open(id("gone"), true));
    drop(book.open(id("alive"), true));
    let later = Instant::now() + Duration::from_secs(10);
    let stale = book.idle_for(Duration::from_secs(5), later, 10);
    assert_eq!(stale.len(), 2);
    for (session, generation) in &stale {
        book.settle(session, *generation, &**session == "alive", later);
    }
    assert!(!book.knows("gone"));
    assert!(book.idle_for(Duration::from_secs(5), later, 10).is_empty());
    let victim = book.pop_victim(later + Duration::from_secs(1)).unwrap();
    assert_eq!(victim.idle, Duration::from_secs(1));
}

#[test]
fn one_line_per_burst() {
    let tally = Tally::default();
    let victim = Victim {
        id: id("a"),
        unused: true,
        idle: Duration::ZERO,
    };
    let t0 = Instant::now();
    tally.note(Reason::Capacity, &victim);
    tally.log_if_due(t0, 1, 1);
    for _ in 0..100 {
        tally.note(Reason::Capacity, &victim);
        tally.log_if_due(t0 + Duration::from_millis(10), 1, 1);
    }
    // Held back within the second, written after it.
    assert_eq!(tally.capacity.load(Ordering::Relaxed), 100);
    tally.log_if_due(t0 + Duration::from_secs(1), 1, 1);
    assert_eq!(tally.capacity.load(Ordering::Relaxed), 0);
}
