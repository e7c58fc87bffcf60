//! [`ArgumentCheck`]: a tool's input schema, compiled, applied to calls.

use std::fmt;

use jsonschema::error::ValidationErrorKind;
use serde_json::Value;

use crate::arguments::error::{InvalidArguments, Violation, pointer_segment};
use crate::arguments::known::{known_names, unknown_argument};
use crate::error::SchemaError;
use crate::json::JsonObject;
use crate::schema::validator::violation_message;

/// A tool's input schema compiled for checking calls: the check every kind
/// of tool runs (see the [module docs](crate::arguments) for the rules).
///
/// Compile it once per tool and keep it: compiling costs far more than
/// checking.
///
/// ```
/// use mcp_core::arguments::ArgumentCheck;
/// use serde_json::json;
///
/// let schema = json!({"type": "object", "properties": {"a": {"type": "number"}}});
/// let check = ArgumentCheck::new(schema.as_object().unwrap())?.allow_unknown_arguments(true);
/// let arguments = json!({"a": 1, "extra": true}).as_object().cloned();
/// assert!(check.check("add", arguments).is_ok());
/// # Ok::<(), mcp_core::SchemaError>(())
/// ```
pub struct ArgumentCheck {
    validator: jsonschema::Validator,
    /// The top-level names the schema knows, when it fixes them.
    known: Option<Vec<String>>,
    /// The root `properties` names, for suggestions.
    properties: Vec<String>,
    /// The root `required` names.
    required: Vec<String>,
    allow_unknown: bool,
}

impl ArgumentCheck {
    /// Compiles `schema`, or says why it is not a usable JSON Schema.
    pub fn new(schema: &JsonObject) -> Result<Self, SchemaError> {
        let validator = jsonschema::validator_for(&Value::Object(schema.clone())).map_err(|e| {
            SchemaError::Invalid {
                reason: e.to_string(),
            }
        })?;
        let names = |key: &str| -> Vec<String> {
            match schema.get(key) {
                Some(Value::Object(map)) => map.keys().cloned().collect(),
                Some(Value::Array(list)) => list
                    .iter()
                    .filter_map(|v| v.as_str().map(str::to_owned))
                    .collect(),
                _ => Vec::new(),
            }
        };
        Ok(Self {
            validator,
            known: known_names(schema),
            properties: names("properties"),
            required: names("required"),
            allow_unknown: false,
        })
    }

    /// Whether top-level arguments the schema does not name are let through
    /// (refused by default). A schema that decides itself (for example with
    /// `"additionalProperties": false`) still decides.
    pub fn allow_unknown_arguments(mut self, allow: bool) -> Self {
        self.allow_unknown = allow;
        self
    }

    /// Checks the arguments of a call of `tool` (`None` is an empty
    /// object): the arguments to hand on (optional `null`s dropped), or
    /// every violation, ordered by pointer.
    pub fn check(
        &self,
        tool: &str,
        arguments: Option<JsonObject>,
    ) -> Result<JsonObject, InvalidArguments> {
        let mut arguments = arguments.unwrap_or_default();
        let mut violations = self.unknown(&arguments);
        let mut instance = Value::Object(arguments);
        let mut found = self.schema_violations(&instance);
        let dropped = self.optional_nulls(&instance, &found);
        if let Value::Object(object) = &mut instance
            && !dropped.is_empty()
        {
            for name in &dropped {
                object.shift_remove(name);
            }
            found = self.schema_violations(&instance);
        }
        violations.extend(found.into_iter().map(|(violation, _)| violation));
        violations.sort_by(|a, b| a.pointer.cmp(&b.pointer));
        arguments = match instance {
            Value::Object(object) => object,
            _ => JsonObject::new(),
        };
        if violations.is_empty() {
            Ok(arguments)
        } else {
            Err(InvalidArguments::new(tool, violations))
        }
    }

    /// The top-level arguments the schema does not name.
    fn unknown(&self, arguments: &JsonObject) -> Vec<Violation> {
        let Some(known) = self.known.as_ref().filter(|_| !self.allow_unknown) else {
            return Vec::new();
        };
        arguments
            .keys()
            .filter(|name| !known.contains(name))
            .map(|name| {
                Violation::new(
                    format!("/{}", pointer_segment(name)),
                    unknown_argument(name, known),
                )
            })
            .collect()
    }

    /// The schema's violations, each with the top-level argument it is
    /// exactly about (when it is one).
    fn schema_violations(&self, instance: &Value) -> Vec<(Violation, Option<String>)> {
        let mut out = Vec::new();
        for error in self.validator.iter_errors(instance) {
            let pointer = error.instance_path().as_str().to_owned();
            if let ValidationErrorKind::AdditionalProperties { unexpected } = error.kind() {
                for name in unexpected {
                    let message = if pointer.is_empty() {
                        unknown_argument(name, &self.properties)
                    } else {
                        format!("unknown property `{name}`")
                    };
                    let at = format!("{pointer}/{}", pointer_segment(name));
                    out.push((Violation::new(at, message), None));
                }
                continue;
            }
            let top = top_level_name(&pointer);
            out.push((Violation::new(pointer, violation_message(&error)), top));
        }
        out
    }

    /// The optional arguments given as `null` that the schema refuses.
    fn optional_nulls(
        &self,
        instance: &Value,
        found: &[(Violation, Option<String>)],
    ) -> Vec<String> {
        let mut names: Vec<String> = Vec::new();
        for name in found.iter().filter_map(|(_, top)| top.as_ref()) {
            let is_null = instance.get(name).is_some_and(Value::is_null);
            if is_null && !self.required.contains(name) && !names.contains(name) {
                names.push(name.clone());
            }
        }
        names
    }
}

/// The argument name a pointer `/name` designates (unescaped), if it has
/// exactly one segment.
fn top_level_name(pointer: &str) -> Option<String> {
    let segment = pointer.strip_prefix('/')?;
    if segment.contains('/') {
        return None;
    }
    Some(segment.replace("~1", "/").replace("~0", "~"))
}

impl fmt::Debug for ArgumentCheck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ArgumentCheck")
            .field("known", &self.known)
            .field("required", &self.required)
            .field("allow_unknown", &self.allow_unknown)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn check(schema: Value) -> ArgumentCheck {
        ArgumentCheck::new(schema.as_object().unwrap()).unwrap()
    }

    fn lines(result: Result<JsonObject, InvalidArguments>) -> Vec<String> {
        result
            .unwrap_err()
            .violations
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn every_violation_is_listed_with_its_pointer() {
        let check = check(json!({
            "type": "object",
            "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
            "required": ["a", "b"]
        }));
        let found = lines(check.check("divide", json!({"a": "one"}).as_object().cloned()));
        assert_eq!(
            found,
            [
                "(root): \"b\" is a required property",
                "/a: \"one\" is not of type \"number\""
            ]
        );
    }

    #[test]
    fn a_null_is_dropped_only_when_optional_and_refused() {
        let check = check(json!({
            "type": "object",
            "properties": {
                "a": {"type": "string"},
                "b": {"type": ["string", "null"]},
                "c": {"type": "string"}
            },
            "required": ["c"]
        }));
        let checked = check
            .check(
                "t",
                json!({"a": null, "b": null, "c": "x"}).as_object().cloned(),
            )
            .unwrap();
        assert_eq!(Value::Object(checked), json!({"b": null, "c": "x"}));
        let found = lines(check.check("t", json!({"c": null}).as_object().cloned()));
        assert_eq!(found, ["/c: null is not of type \"string\""]);
    }

    #[test]
    fn unknown_arguments_are_refused_unless_allowed() {
        let schema = json!({"type": "object", "properties": {"limit": {"type": "integer"}}});
        let arguments = json!({"limt": 3}).as_object().cloned();
        let found = lines(check(schema.clone()).check("t", arguments.clone()));
        assert_eq!(
            found,
            ["/limt: unknown argument `limt`; did you mean `limit`?"]
        );
        let open = check(schema).allow_unknown_arguments(true);
        assert!(open.check("t", arguments).is_ok());
    }

    #[test]
    fn a_closed_schema_reports_unknown_arguments_the_same_way() {
        let check = check(json!({
            "type": "object",
            "properties": {"name": {"type": "string"}, "tag": {"type": "object", "properties": {}, "additionalProperties": false}},
            "additionalProperties": false
        }));
        let found = lines(
            check.allow_unknown_arguments(true).check(
                "t",
                json!({"nmae": "x", "tag": {"a~/b": 1}})
                    .as_object()
                    .cloned(),
            ),
        );
        assert_eq!(
            found,
            [
                "/nmae: unknown argument `nmae`; did you mean `name`?",
                "/tag/a~0~1b: unknown property `a~/b`"
            ]
        );
    }

    #[test]
    fn an_invalid_schema_is_refused() {
        let error = ArgumentCheck::new(json!({"type": 3}).as_object().unwrap()).unwrap_err();
        assert!(
            error.to_string().contains("not a valid JSON Schema"),
            "{error}"
        );
    }
}
