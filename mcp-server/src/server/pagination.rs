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

/// The most bytes of tool JSON one `tools/list` page carries (a single tool
/// larger than this still gets a page of its own). Far below the 16 MiB line
/// limit of rmcp's stdio transport, whatever the size of generated schemas.
pub const MAX_PAGE_BYTES: usize = 4 << 20;

/// A cursor this server did not hand out.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid cursor `{0}`: pass back a `nextCursor` this server returned")]
pub(crate) struct InvalidCursor(pub(crate) String);

/// The page starting at `cursor` (the first page without one) of a list of
/// `len` items, `size` items per page.
pub(crate) fn page(cursor: Option<&str>, len: usize, size: usize) -> Result<Page, InvalidCursor> {
    let start = start_of(cursor, len)?;
    let end = start.saturating_add(size.max(1)).min(len);
    Ok(page_between(start, end, len))
}

/// Like [`page`], but a page also ends before its items' serialized sizes
/// (`sizes`, one per item) pass `max_bytes`; it always holds at least one item.
pub(crate) fn page_within(
    cursor: Option<&str>,
    sizes: &[usize],
    max_items: usize,
    max_bytes: usize,
) -> Result<Page, InvalidCursor> {
    let start = start_of(cursor, sizes.len())?;
    let mut end = start;
    let mut bytes = 0usize;
    while end < sizes.len() && end - start < max_items.max(1) {
        let next = bytes.saturating_add(sizes[end]);
        if end > start && next > max_bytes {
            break;
        }
        bytes = next;
        end += 1;
    }
    Ok(page_between(start, end, sizes.len()))
}

fn page_between(start: usize, end: usize, len: usize) -> Page {
    let next_cursor = (end < len).then(|| format!("{CURSOR_PREFIX}{end}"));
    Page {
        range: start..end,
        next_cursor,
    }
}

fn start_of(cursor: Option<&str>, len: usize) -> Result<usize, InvalidCursor> {
    Ok(match cursor {
        None => 0,
        Some(cursor) => cursor
            .strip_prefix(CURSOR_PREFIX)
            .and_then(|offset| offset.parse::<usize>().ok())
            .filter(|&offset| offset <= len)
            .ok_or_else(|| InvalidCursor(cursor.to_owned()))?,
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
    fn pages_end_before_the_byte_budget_but_never_empty() {
        let sizes = [3, 3, 3, 10, 1, 1];
        let mut cursor = None;
        let mut seen = Vec::new();
        loop {
            let page = page_within(cursor.as_deref(), &sizes, 100, 7).unwrap();
            seen.push(page.range.clone());
            match page.next_cursor {
                Some(next) => cursor = Some(next),
                None => break,
            }
        }
        // 3+3 fit in 7, the third would not; 10 alone exceeds 7 but goes alone.
        assert_eq!(seen, vec![0..2, 2..3, 3..4, 4..6]);
        assert_eq!(page_within(None, &sizes, 1, 100).unwrap().range, 0..1);
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
