//! The tool name rule of the MCP specification, in one place.

use crate::error::ToolError;

/// The longest tool name the specification allows, in characters.
pub const MAX_TOOL_NAME_LEN: usize = 128;

/// Returns whether `name` is a valid MCP tool name: 1 to 128 characters of
/// `A-Z a-z 0-9 _ - .`.
///
/// It is a `const fn`, so a name known at compile time can be checked at
/// compile time (the `#[tool]` macro does so).
///
/// ```
/// use mcp_core::name::is_valid_tool_name;
///
/// assert!(is_valid_tool_name("delete_user"));
/// assert!(is_valid_tool_name("admin.tools-v2"));
/// assert!(!is_valid_tool_name("delete user"));
/// assert!(!is_valid_tool_name(""));
/// ```
pub const fn is_valid_tool_name(name: &str) -> bool {
    let bytes = name.as_bytes();
    if bytes.is_empty() || bytes.len() > MAX_TOOL_NAME_LEN {
        return false;
    }
    let mut i = 0;
    while i < bytes.len() {
        if !is_name_byte(bytes[i]) {
            return false;
        }
        i += 1;
    }
    true
}

const fn is_name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'-' || b == b'.'
}

/// Checks `name` against the tool name rule and explains the first problem.
///
/// ```
/// use mcp_core::name::validate_tool_name;
///
/// let err = validate_tool_name("delete user").unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "invalid tool name `delete user`: character ' ' at position 6 is not one of A-Z a-z 0-9 _ - ."
/// );
/// ```
pub fn validate_tool_name(name: &str) -> Result<(), ToolError> {
    let invalid = |reason: String| ToolError::InvalidName {
        name: name.to_owned(),
        reason,
    };
    if name.is_empty() {
        return Err(invalid("a tool name must not be empty".to_owned()));
    }
    if let Some((position, character)) = name
        .chars()
        .enumerate()
        .find(|(_, c)| !c.is_ascii() || !is_name_byte(*c as u8))
    {
        return Err(invalid(format!(
            "character {character:?} at position {position} is not one of A-Z a-z 0-9 _ - ."
        )));
    }
    if name.len() > MAX_TOOL_NAME_LEN {
        return Err(invalid(format!(
            "it is {} characters long, the limit is {MAX_TOOL_NAME_LEN}",
            name.len()
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_the_whole_charset_and_the_length_limit() {
        assert!(is_valid_tool_name("azAZ09_-."));
        assert!(is_valid_tool_name(&"a".repeat(128)));
        assert!(validate_tool_name(&"a".repeat(128)).is_ok());
    }

    #[test]
    fn refuses_with_the_character_and_its_position() {
        let err = validate_tool_name("añb").unwrap_err().to_string();
        assert!(err.contains("'ñ' at position 1"), "{err}");
        assert!(!is_valid_tool_name("añb"));
        let err = validate_tool_name(&"a".repeat(129))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("129 characters long, the limit is 128"),
            "{err}"
        );
        assert!(!is_valid_tool_name(&"a".repeat(129)));
        assert!(
            validate_tool_name("")
                .unwrap_err()
                .to_string()
                .contains("empty")
        );
    }
}
