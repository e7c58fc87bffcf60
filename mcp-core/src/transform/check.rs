//! The checks of argument changes: each names an existing argument once,
//! and the changes of one argument agree with each other and with its
//! schema.

use std::collections::HashSet;

use serde_json::Value;

use crate::json::JsonObject;
use crate::schema::Validator;
use crate::transform::arg::{ArgTransform, HiddenValue};
use crate::transform::error::TransformError;

/// Every change names an existing argument, once.
pub(crate) fn check_names<C>(
    tool: &str,
    properties: &JsonObject,
    changes: &[(String, ArgTransform<C>)],
) -> Result<(), TransformError> {
    let mut seen = HashSet::new();
    for (name, _) in changes {
        if !seen.insert(name.as_str()) {
            return Err(TransformError::ArgumentNames {
                tool: tool.to_owned(),
                reason: format!("argument `{name}` is transformed twice"),
            });
        }
        if !properties.contains_key(name) {
            let known: Vec<String> = properties.keys().map(|k| format!("`{k}`")).collect();
            return Err(TransformError::UnknownArgument {
                tool: tool.to_owned(),
                argument: name.clone(),
                known: if known.is_empty() {
                    "none".to_owned()
                } else {
                    known.join(", ")
                },
            });
        }
    }
    Ok(())
}

/// The changes of one argument agree with each other and with its schema.
pub(crate) fn check_change<C>(
    tool: &str,
    root: &JsonObject,
    name: &str,
    property: &Value,
    change: &ArgTransform<C>,
    is_required: bool,
) -> Result<(), TransformError> {
    let fail = |reason: String| TransformError::Argument {
        tool: tool.to_owned(),
        argument: name.to_owned(),
        reason,
    };
    if let Some((key, reason)) = &change.error {
        return Err(fail(format!("the `{key}` cannot be serialized: {reason}")));
    }
    let fits = |key: &str, value: &Value| -> Result<(), TransformError> {
        let validator = Validator::for_property(root, property)
            .map_err(|reason| fail(format!("its schema cannot be compiled: {reason}")))?;
        let violations = validator.violations(value);
        if violations.is_empty() {
            return Ok(());
        }
        let reasons: Vec<&str> = violations
            .iter()
            .map(|line| line.strip_prefix("(root): ").unwrap_or(line))
            .collect();
        Err(fail(format!(
            "the `{key}` {value} does not fit the argument's schema: {}",
            reasons.join("; ")
        )))
    };
    if change.hide {
        let also = [
            (change.rename.is_some(), "rename"),
            (change.description.is_some(), "description"),
            (change.enum_values.is_some(), "enum"),
            (change.default.is_some(), "default"),
            (change.required, "required"),
        ];
        if let Some((_, key)) = also.iter().find(|(set, _)| *set) {
            return Err(fail(format!(
                "a hidden argument cannot also have `{key}` (clients never see it)"
            )));
        }
        return match &change.value {
            None if is_required => Err(fail(
                "the tool requires this argument, so hiding it needs a `value`".to_owned(),
            )),
            Some(HiddenValue::Fixed(value)) => fits("value", value),
            _ => Ok(()),
        };
    }
    if change.value.is_some() {
        return Err(fail(
            "a `value` is only for a hidden argument: add `hide`".to_owned(),
        ));
    }
    if change.required && change.default.is_some() {
        return Err(fail(
            "an argument with a `default` cannot also be `required`".to_owned(),
        ));
    }
    if change.rename.as_deref() == Some("") {
        return Err(fail("the new name must not be empty".to_owned()));
    }
    if let Some(values) = &change.enum_values {
        if values.is_empty() {
            return Err(fail("the `enum` needs at least one value".to_owned()));
        }
        values.iter().try_for_each(|value| fits("enum", value))?;
    }
    if let Some(default) = &change.default {
        fits("default", default)?;
        if change
            .enum_values
            .as_ref()
            .is_some_and(|values| !values.contains(default))
        {
            return Err(fail(format!(
                "the `default` {default} is not one of the `enum` values"
            )));
        }
    }
    Ok(())
}
