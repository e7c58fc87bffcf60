//! How a transformed tool's arguments become the original tool's: defaults
//! filled in, the new schema checked, names mapped back, hidden values added.

use std::collections::HashMap;
use std::fmt;

use serde_json::Value;

use crate::arguments::error::pointer_segment;
use crate::arguments::{InvalidArguments, Violation};
use crate::json::JsonObject;
use crate::schema::Validator;
use crate::tool::context::ToolCallContext;
use crate::transform::arg::HiddenValue;

/// Why a client may not send an argument under its original name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Blocked {
    /// The argument is hidden: the transformation supplies it.
    Hidden,
    /// The argument is shown under this new name.
    RenamedTo(String),
}

/// The argument mapping of one transformed tool.
pub(crate) struct ArgPlan<C> {
    /// The transformed tool's name, for messages.
    pub(crate) tool: String,
    /// The transformed tool's input schema, compiled.
    pub(crate) validator: Validator,
    /// New name to original name, for renamed arguments.
    pub(crate) renamed: HashMap<String, String>,
    /// Original names a call may not use.
    pub(crate) blocked: HashMap<String, Blocked>,
    /// Hidden arguments with a value, by original name.
    pub(crate) hidden: Vec<(String, HiddenValue<C>)>,
    /// Defaults by new name.
    pub(crate) defaults: Vec<(String, Value)>,
}

impl<C> ArgPlan<C> {
    /// Adds the defaults of the arguments `arguments` lacks.
    pub(crate) fn fill_defaults(&self, arguments: &mut JsonObject) {
        for (name, value) in &self.defaults {
            if !arguments.contains_key(name) {
                arguments.insert(name.clone(), value.clone());
            }
        }
    }

    /// Checks `arguments` (new names) against the transformed input schema.
    pub(crate) fn validate(&self, arguments: &JsonObject) -> Result<(), String> {
        let instance = Value::Object(arguments.clone());
        let violations = self.validator.violations(&instance);
        if violations.is_empty() {
            Ok(())
        } else {
            Err(invalid_arguments(&self.tool, &violations))
        }
    }

    /// The original tool's arguments for `arguments` (new names): renamed
    /// back, hidden values added. A call that names a hidden argument, or a
    /// renamed one by its old name, is refused.
    pub(crate) fn to_original(
        &self,
        arguments: JsonObject,
        cx: &ToolCallContext<C>,
    ) -> Result<JsonObject, String> {
        let mut original = JsonObject::new();
        for (name, value) in arguments {
            if let Some(target) = self.renamed.get(&name) {
                original.insert(target.clone(), value);
                continue;
            }
            match self.blocked.get(&name) {
                Some(Blocked::Hidden) => {
                    return Err(format!(
                        "{}",
                        InvalidArguments::new(
                            self.tool.clone(),
                            vec![Violation::new(
                                format!("/{}", pointer_segment(&name)),
                                format!(
                                    "argument `{name}` is set by the server and cannot be given"
                                ),
                            )]
                        )
                    ));
                }
                Some(Blocked::RenamedTo(new)) => {
                    return Err(format!(
                        "{}",
                        InvalidArguments::new(
                            self.tool.clone(),
                            vec![Violation::new(
                                format!("/{}", pointer_segment(&name)),
                                format!("unknown argument `{name}`; it is called `{new}`"),
                            )]
                        )
                    ));
                }
                None => {
                    original.insert(name, value);
                }
            }
        }
        for (name, hidden) in &self.hidden {
            let value = match hidden {
                HiddenValue::Fixed(value) => value.clone(),
                HiddenValue::Computed(compute) => compute(cx).map_err(|reason| {
                    format!(
                        "tool `{}`: the value of hidden argument `{name}` cannot be computed: {reason}",
                        self.tool
                    )
                })?,
            };
            original.insert(name.clone(), value);
        }
        Ok(original)
    }
}

impl<C> fmt::Debug for ArgPlan<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ArgPlan")
            .field("tool", &self.tool)
            .field("renamed", &self.renamed)
            .field("blocked", &self.blocked)
            .field("hidden", &self.hidden.len())
            .field("defaults", &self.defaults)
            .finish_non_exhaustive()
    }
}

/// The message of a call whose arguments break the tool's input schema.
pub(crate) fn invalid_arguments(tool: &str, violations: &[String]) -> String {
    format!(
        "invalid arguments for tool `{tool}`:\n{}",
        violations.join("\n")
    )
}
