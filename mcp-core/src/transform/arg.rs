//! What to change about one argument of a transformed tool.

use std::fmt;
use std::sync::Arc;

use serde::Serialize;
use serde_json::Value;

use crate::tool::context::ToolCallContext;

/// Computes a hidden argument's value from the call being served.
pub(crate) type ComputeFn<C> =
    Arc<dyn Fn(&ToolCallContext<C>) -> Result<Value, String> + Send + Sync>;

/// Where a hidden argument's value comes from.
pub(crate) enum HiddenValue<C> {
    /// The same value at every call.
    Fixed(Value),
    /// A value computed at each call.
    Computed(ComputeFn<C>),
}

impl<C> Clone for HiddenValue<C> {
    fn clone(&self) -> Self {
        match self {
            Self::Fixed(value) => Self::Fixed(value.clone()),
            Self::Computed(compute) => Self::Computed(compute.clone()),
        }
    }
}

/// The changes to one argument of a tool: pass it to
/// [`ToolTransform::arg`](crate::transform::ToolTransform::arg) under the
/// argument's original name. Arguments without changes pass through as they
/// are.
///
/// A shown argument may be renamed, re-described, restricted to an `enum`,
/// given a default or made required. A [`hide`](Self::hide)den argument is
/// removed from the schema clients see; the original tool then gets its
/// [`value`](Self::value) (or one computed per call with
/// [`value_with`](Self::value_with)), or nothing when it is optional.
///
/// ```
/// use mcp_core::transform::ArgTransform;
///
/// let status: ArgTransform = ArgTransform::new()
///     .rename("status")
///     .description("Open or closed issues.")
///     .enum_values(["open", "closed"])
///     .default_value("open");
/// let owner: ArgTransform = ArgTransform::new().hide().value("acme");
/// # let _ = (status, owner);
/// ```
///
/// `C` is the server's per-session context type, which a computed value may
/// read.
pub struct ArgTransform<C = ()> {
    pub(crate) rename: Option<String>,
    pub(crate) description: Option<String>,
    pub(crate) enum_values: Option<Vec<Value>>,
    pub(crate) default: Option<Value>,
    pub(crate) required: bool,
    pub(crate) hide: bool,
    pub(crate) value: Option<HiddenValue<C>>,
    /// A value that could not be serialized: the key it was given for, and why.
    pub(crate) error: Option<(&'static str, String)>,
}

impl<C> ArgTransform<C> {
    /// No change yet.
    pub fn new() -> Self {
        Self {
            rename: None,
            description: None,
            enum_values: None,
            default: None,
            required: false,
            hide: false,
            value: None,
            error: None,
        }
    }

    /// Shows the argument under `name`; the original tool still gets it
    /// under its own name.
    pub fn rename(mut self, name: impl Into<String>) -> Self {
        self.rename = Some(name.into());
        self
    }

    /// Replaces the argument's description.
    pub fn description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// Restricts the argument to these values (the schema's `enum`); each must
    /// fit the argument's original schema.
    pub fn enum_values<T: Serialize>(mut self, values: impl IntoIterator<Item = T>) -> Self {
        let values: Result<Vec<Value>, _> = values.into_iter().map(serde_json::to_value).collect();
        match values {
            Ok(values) => self.enum_values = Some(values),
            Err(error) => self.fail("enum", &error),
        }
        self
    }

    /// Gives the argument a default: it becomes optional, and a call without
    /// it sends this value to the original tool.
    pub fn default_value(mut self, value: impl Serialize) -> Self {
        match serde_json::to_value(value) {
            Ok(value) => self.default = Some(value),
            Err(error) => self.fail("default", &error),
        }
        self
    }

    /// Makes the argument required.
    pub fn required(mut self) -> Self {
        self.required = true;
        self
    }

    /// Hides the argument from clients: it leaves `properties` and
    /// `required`, and a call that names it is refused. Give it a
    /// [`value`](Self::value) unless the original tool lets it be absent.
    pub fn hide(mut self) -> Self {
        self.hide = true;
        self
    }

    /// The value a [`hide`](Self::hide)den argument always has.
    pub fn value(mut self, value: impl Serialize) -> Self {
        match serde_json::to_value(value) {
            Ok(value) => self.value = Some(HiddenValue::Fixed(value)),
            Err(error) => self.fail("value", &error),
        }
        self
    }

    /// Computes a [`hide`](Self::hide)den argument's value at each call,
    /// from the call being served (for example the session's context):
    ///
    /// ```
    /// use mcp_core::{transform::ArgTransform, ToolCallContext};
    ///
    /// struct Session {
    ///     organisation: String,
    /// }
    ///
    /// let owner = ArgTransform::new()
    ///     .hide()
    ///     .value_with(|cx: &ToolCallContext<Session>| cx.ctx().organisation.clone());
    /// # let _ = owner;
    /// ```
    pub fn value_with<T, F>(mut self, compute: F) -> Self
    where
        F: Fn(&ToolCallContext<C>) -> T + Send + Sync + 'static,
        T: Serialize,
    {
        let compute = move |cx: &ToolCallContext<C>| {
            serde_json::to_value(compute(cx)).map_err(|error| error.to_string())
        };
        self.value = Some(HiddenValue::Computed(Arc::new(compute)));
        self
    }

    fn fail(&mut self, key: &'static str, error: &serde_json::Error) {
        self.error.get_or_insert((key, error.to_string()));
    }
}

impl<C> Default for ArgTransform<C> {
    fn default() -> Self {
        Self::new()
    }
}

impl<C> Clone for ArgTransform<C> {
    fn clone(&self) -> Self {
        Self {
            rename: self.rename.clone(),
            description: self.description.clone(),
            enum_values: self.enum_values.clone(),
            default: self.default.clone(),
            required: self.required,
            hide: self.hide,
            value: self.value.clone(),
            error: self.error.clone(),
        }
    }
}

impl<C> fmt::Debug for ArgTransform<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let value = match &self.value {
            None => None,
            Some(HiddenValue::Fixed(value)) => Some(value.to_string()),
            Some(HiddenValue::Computed(_)) => Some("<computed per call>".to_owned()),
        };
        f.debug_struct("ArgTransform")
            .field("rename", &self.rename)
            .field("description", &self.description)
            .field("enum_values", &self.enum_values)
            .field("default", &self.default)
            .field("required", &self.required)
            .field("hide", &self.hide)
            .field("value", &value)
            .finish_non_exhaustive()
    }
}
