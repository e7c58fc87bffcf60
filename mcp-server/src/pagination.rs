//! Cursor pagination of list results.

use std::ops::Range;

/// The default number of tools per `tools/list` page.
pub const DEFAULT_PAGE_SIZE: usize = 100;

const CURSOR_PREFIX: &str = "offset:";

/// One page of a list: the item range and the cursor of the next page.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Page {
    pub(crate) range: Range<usize>,
    pub(crate) next_cursor: Option<String>,
}

/// A cursor this server did not hand out.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid cursor `{0}`: pass back a `nextCursor` this server returned")]
pub(crate) struct InvalidCursor(pub(crate) String);

/// The page starting at `cursor` (the first page without one) of a list of
/// `len` items, `size` items per page.
pub(crate) fn page(cursor: Option<&str>, len: usize, size: usize) -> Result<Page, InvalidCursor> {
    let start = match cursor {
        None => 0,
        Some(cursor) => cursor
            .strip_prefix(CURSOR_PREFIX)
            .and_then(|offset| offset.parse::<usize>().ok())
            .filter(|&offset| offset <= len)
            .ok_or_else(|| InvalidCursor(cursor.to_owned()))?,
    };
    let end = start.saturating_add(size.max(1)).min(len);
    let next_cursor = (end < len).then(|| format!("{CURSOR_PREFIX}{end}"));
    Ok(Page {
        range: start..end,
        next_cursor,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_cover_the_list_once() {
        let mut cursor = None;
        let mut seen = Vec::new();
        loop {
            let page = page(cursor.as_deref(), 250, 100).unwrap();
            seen.push(page.range.clone());
            match page.next_cursor {
                Some(next) => cursor = Some(next),
                None => break,
            }
        }
        assert_eq!(seen, vec![0..100, 100..200, 200..250]);
    }

    #[test]
    fn empty_list_is_one_empty_page() {
        assert_eq!(
            page(None, 0, 10).unwrap(),
            Page {
                range: 0..0,
                next_cursor: None
            }
        );
    }

    #[test]
    fn foreign_cursors_are_rejected() {
        for bad in ["", "12", "offset:x", "offset:-1", "offset:251"] {
            assert_eq!(
                page(Some(bad), 250, 100),
                Err(InvalidCursor(bad.to_owned())),
                "{bad}"
            );
        }
    }
}
