//! The `inline` profile: references replaced by their content, recursive
//! schemas cut after `cycle_depth` levels, at most `INLINE_BUDGET`
//! definitions expanded per schema, and none past [`MAX_INLINE_NESTING`]
//! levels of JSON, so that what a client parses stays well within the
//! nesting its JSON parser allows (128 levels for many).

use serde_json::{Map, Value};

use crate::schema::defs::{DEFS_PREFIX, DefCopier, Mode, NAME_MAPS};

/// The deepest level of JSON (inside the root schema) at which a
/// definition is still expanded.
pub(crate) const MAX_INLINE_NESTING: usize = 64;

impl DefCopier<'_> {
    /// `value` with its `#/$defs/` references replaced by their content
    /// (`stack`: the definitions being inlined around it).
    pub(super) fn inline(&mut self, value: &Value, mode: Mode, stack: &mut Vec<String>) -> Value {
        self.nesting += 1;
        let inlined = self.inline_nested(value, mode, stack);
        self.nesting -= 1;
        inlined
    }

    fn inline_nested(&mut self, value: &Value, mode: Mode, stack: &mut Vec<String>) -> Value {
        match value {
            Value::Object(object) => {
                let name = object
                    .get("$ref")
                    .and_then(Value::as_str)
                    .and_then(|r| r.strip_prefix(DEFS_PREFIX));
                if let Some(name) = name {
                    let name = name.to_owned();
                    let mut out =
                        if stack.iter().filter(|n| **n == name).count() >= self.cycle_depth {
                            let mut cut = Map::new();
                            cut.insert(
                                "description".to_owned(),
                                format!(
                                    "recursive schema `{name}`, cut after {} levels",
                                    self.cycle_depth
                                )
                                .into(),
                            );
                            cut
                        } else if self.nesting > MAX_INLINE_NESTING {
                            let mut cut = Map::new();
                            cut.insert(
                                "description".to_owned(),
                                format!("schema `{name}` left out (nested too deep)").into(),
                            );
                            cut
                        } else if self.budget == 0 {
                            let mut cut = Map::new();
                            cut.insert(
                                "description".to_owned(),
                                format!("schema `{name}` left out (size limit)").into(),
                            );
                            cut
                        } else {
                            self.budget -= 1;
                            let content = match &self.prepared(&name, mode).value {
                                Ok(value) => Value::clone(value),
                                Err(_) => Value::Object(Map::new()),
                            };
                            stack.push(name);
                            let inlined = self.inline(&content, mode, stack);
                            stack.pop();
                            match inlined {
                                Value::Object(map) => map,
                                _ => Map::new(),
                            }
                        };
                    for (key, sibling) in object {
                        if key != "$ref" {
                            let sibling = self.inline(sibling, mode, stack);
                            out.insert(key.clone(), sibling);
                        }
                    }
                    return Value::Object(out);
                }
                let mut out = Map::with_capacity(object.len());
                for (key, child) in object {
                    let child = match (key.as_str(), child) {
                        ("enum" | "const" | "default" | "examples", _) => child.clone(),
                        (map, Value::Object(schemas)) if NAME_MAPS.contains(&map) => Value::Object(
                            schemas
                                .iter()
                                .map(|(name, schema)| {
                                    (name.clone(), self.inline(schema, mode, stack))
                                })
                                .collect(),
                        ),
                        _ => self.inline(child, mode, stack),
                    };
                    out.insert(key.clone(), child);
                }
                Value::Object(out)
            }
            Value::Array(items) => {
                Value::Array(items.iter().map(|v| self.inline(v, mode, stack)).collect())
            }
            other => other.clone(),
        }
    }
}
