//! Behavioural hints of a tool, and the lawful way to combine them.

use std::iter::Sum;
use std::ops::{Add, AddAssign};

use serde::{Deserialize, Serialize};

/// Additional properties describing a tool to clients (`ToolAnnotations` of
/// the MCP specification). Every field is optional; all are hints.
///
/// # Combining
///
/// `ToolAnnotations` is a commutative monoid under [`combine`](Self::combine)
/// (also `+` and [`Sum`]), with [`ToolAnnotations::default()`] (nothing
/// declared) as the identity:
///
/// - a field that one side leaves `None` takes the other side's value;
/// - two declared hints that agree stay as they are;
/// - two declared hints that disagree resolve to the **spec default** of that
///   hint (`readOnly = false`, `destructive = true`, `idempotent = false`,
///   `openWorld = true`): the safer value a client would assume anyway;
/// - two different titles resolve to the one that sorts first (by Unicode
///   code points, [`str::cmp`]). The MCP specification has no default title,
///   and "drop both" would not be associative; "smallest wins" is associative,
///   commutative and idempotent, so the order in which annotation values are
///   combined never changes the result.
///
/// ```
/// use mcp_core::ToolAnnotations;
///
/// // `read + destroy` is destroy-shaped.
/// assert_eq!(ToolAnnotations::read() + ToolAnnotations::destroy(), ToolAnnotations::destroy());
/// // `closed_world + open_world` is open-world-shaped.
/// assert_eq!(
///     ToolAnnotations::closed_world() + ToolAnnotations::open_world(),
///     ToolAnnotations::open_world()
/// );
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ToolAnnotations {
    /// A human-readable title for the tool.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// If true, the tool does not modify its environment. Default: false.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read_only_hint: Option<bool>,
    /// If true, the tool may perform destructive updates. Default: true.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub destructive_hint: Option<bool>,
    /// If true, repeated calls with the same arguments have no additional
    /// effect. Default: false.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotent_hint: Option<bool>,
    /// If true, the tool may interact with an open world of external
    /// entities. Default: true.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open_world_hint: Option<bool>,
}

/// The spec default of `readOnlyHint`.
const READ_ONLY_DEFAULT: bool = false;
/// The spec default of `destructiveHint`.
const DESTRUCTIVE_DEFAULT: bool = true;
/// The spec default of `idempotentHint`.
const IDEMPOTENT_DEFAULT: bool = false;
/// The spec default of `openWorldHint`.
const OPEN_WORLD_DEFAULT: bool = true;

impl ToolAnnotations {
    /// Nothing declared: the identity of [`combine`](Self::combine).
    pub const fn new() -> Self {
        Self {
            title: None,
            read_only_hint: None,
            destructive_hint: None,
            idempotent_hint: None,
            open_world_hint: None,
        }
    }

    /// The tool only reads: `readOnlyHint = true`, `destructiveHint = false`.
    pub const fn read() -> Self {
        Self::shape(Some(true), Some(false), None, None)
    }

    /// The tool writes additively: `readOnlyHint = false`, `destructiveHint = false`.
    pub const fn write() -> Self {
        Self::shape(Some(false), Some(false), None, None)
    }

    /// The tool may delete or replace data: `readOnlyHint = false`, `destructiveHint = true`.
    pub const fn destroy() -> Self {
        Self::shape(Some(false), Some(true), None, None)
    }

    /// Calling twice with the same arguments is safe: `idempotentHint = true`.
    pub const fn idempotent() -> Self {
        Self::shape(None, None, Some(true), None)
    }

    /// Calling twice may have additional effects: `idempotentHint = false`.
    pub const fn not_idempotent() -> Self {
        Self::shape(None, None, Some(false), None)
    }

    /// The tool's domain is closed (a memory, a local store): `openWorldHint = false`.
    pub const fn closed_world() -> Self {
        Self::shape(None, None, None, Some(false))
    }

    /// The tool reaches external, time-dependent systems: `openWorldHint = true`.
    pub const fn open_world() -> Self {
        Self::shape(None, None, None, Some(true))
    }

    /// Exactly the spec defaults, every hint present and no title.
    ///
    /// Do not combine it with declared hints: under the conflict rule it would
    /// win every conflict. Use [`with_defaults`](Self::with_defaults) to fill gaps.
    pub const fn defaults() -> Self {
        Self::shape(
            Some(READ_ONLY_DEFAULT),
            Some(DESTRUCTIVE_DEFAULT),
            Some(IDEMPOTENT_DEFAULT),
            Some(OPEN_WORLD_DEFAULT),
        )
    }

    /// Annotations with only a title.
    pub fn titled(title: impl Into<String>) -> Self {
        Self {
            title: Some(title.into()),
            ..Self::new()
        }
    }

    const fn shape(
        read_only: Option<bool>,
        destructive: Option<bool>,
        idempotent: Option<bool>,
        open_world: Option<bool>,
    ) -> Self {
        Self {
            title: None,
            read_only_hint: read_only,
            destructive_hint: destructive,
            idempotent_hint: idempotent,
            open_world_hint: open_world,
        }
    }

    /// Fills every unset hint with its spec default; declared hints and the
    /// title stay.
    ///
    /// ```
    /// use mcp_core::ToolAnnotations;
    ///
    /// let full = (ToolAnnotations::destroy() + ToolAnnotations::closed_world()).with_defaults();
    /// assert_eq!(full.idempotent_hint, Some(false));
    /// assert_eq!(full.open_world_hint, Some(false));
    /// ```
    pub fn with_defaults(self) -> Self {
        Self {
            title: self.title,
            read_only_hint: self.read_only_hint.or(Some(READ_ONLY_DEFAULT)),
            destructive_hint: self.destructive_hint.or(Some(DESTRUCTIVE_DEFAULT)),
            idempotent_hint: self.idempotent_hint.or(Some(IDEMPOTENT_DEFAULT)),
            open_world_hint: self.open_world_hint.or(Some(OPEN_WORLD_DEFAULT)),
        }
    }

    /// Combines two annotation values by the conflict rule described on the
    /// type: `None` loses to a declared value, disagreeing hints resolve to the
    /// spec default, different titles to the smallest.
    pub fn combine(self, other: Self) -> Self {
        Self {
            title: combine_titles(self.title, other.title),
            read_only_hint: combine_hint(
                self.read_only_hint,
                other.read_only_hint,
                READ_ONLY_DEFAULT,
            ),
            destructive_hint: combine_hint(
                self.destructive_hint,
                other.destructive_hint,
                DESTRUCTIVE_DEFAULT,
            ),
            idempotent_hint: combine_hint(
                self.idempotent_hint,
                other.idempotent_hint,
                IDEMPOTENT_DEFAULT,
            ),
            open_world_hint: combine_hint(
                self.open_world_hint,
                other.open_world_hint,
                OPEN_WORLD_DEFAULT,
            ),
        }
    }

    /// Whether no field is declared.
    pub fn is_empty(&self) -> bool {
        *self == Self::new()
    }
}

fn combine_hint(a: Option<bool>, b: Option<bool>, spec_default: bool) -> Option<bool> {
    match (a, b) {
        (None, x) | (x, None) => x,
        (Some(x), Some(y)) if x == y => Some(x),
        (Some(_), Some(_)) => Some(spec_default),
    }
}

fn combine_titles(a: Option<String>, b: Option<String>) -> Option<String> {
    match (a, b) {
        (None, x) | (x, None) => x,
        (Some(x), Some(y)) => Some(if y < x { y } else { x }),
    }
}

impl Add for ToolAnnotations {
    type Output = Self;

    fn add(self, other: Self) -> Self {
        self.combine(other)
    }
}

impl AddAssign for ToolAnnotations {
    fn add_assign(&mut self, other: Self) {
        *self = std::mem::take(self).combine(other);
    }
}

impl Sum for ToolAnnotations {
    fn sum<I: Iterator<Item = Self>>(iter: I) -> Self {
        iter.fold(Self::new(), Self::combine)
    }
}

impl<'a> Sum<&'a ToolAnnotations> for ToolAnnotations {
    fn sum<I: Iterator<Item = &'a Self>>(iter: I) -> Self {
        iter.cloned().sum()
    }
}

/// One declaration about a tool's behaviour; a set of hints folds into
/// [`ToolAnnotations`] with [`ToolAnnotations::combine`].
///
/// | hint | declares |
/// |---|---|
/// | `Read` | `readOnlyHint=true`, `destructiveHint=false` |
/// | `Write` | `readOnlyHint=false`, `destructiveHint=false` |
/// | `Destroy` | `readOnlyHint=false`, `destructiveHint=true` |
/// | `Idempotent` | `idempotentHint=true` |
/// | `NotIdempotent` | `idempotentHint=false` |
/// | `OpenWorld` | `openWorldHint=true` |
/// | `ClosedWorld` | `openWorldHint=false` |
/// | `Title(s)` | `title=Some(s)` |
///
/// ```
/// use mcp_core::{Hint, ToolAnnotations};
///
/// let annotations: ToolAnnotations = [Hint::Destroy, Hint::ClosedWorld].into_iter().collect();
/// assert_eq!(annotations, ToolAnnotations::destroy() + ToolAnnotations::closed_world());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Hint {
    /// The tool does not modify its environment.
    Read,
    /// The tool modifies its environment additively.
    Write,
    /// The tool may delete or replace data.
    Destroy,
    /// Repeated calls with the same arguments have no additional effect.
    Idempotent,
    /// Repeated calls may have additional effects.
    NotIdempotent,
    /// The tool reaches external, time-dependent systems.
    OpenWorld,
    /// The tool's domain is closed.
    ClosedWorld,
    /// A human-readable title.
    Title(String),
}

impl From<Hint> for ToolAnnotations {
    fn from(hint: Hint) -> Self {
        match hint {
            Hint::Read => Self::read(),
            Hint::Write => Self::write(),
            Hint::Destroy => Self::destroy(),
            Hint::Idempotent => Self::idempotent(),
            Hint::NotIdempotent => Self::not_idempotent(),
            Hint::OpenWorld => Self::open_world(),
            Hint::ClosedWorld => Self::closed_world(),
            Hint::Title(title) => Self::titled(title),
        }
    }
}

impl FromIterator<Hint> for ToolAnnotations {
    fn from_iter<I: IntoIterator<Item = Hint>>(hints: I) -> Self {
        hints.into_iter().map(Self::from).sum()
    }
}

impl<const N: usize> From<[Hint; N]> for ToolAnnotations {
    fn from(hints: [Hint; N]) -> Self {
        hints.into_iter().collect()
    }
}

impl From<Vec<Hint>> for ToolAnnotations {
    fn from(hints: Vec<Hint>) -> Self {
        hints.into_iter().collect()
    }
}
