//! `--output-schema-budget BYTES|full`: the most bytes of each generated
//! output schema.

use std::fmt;
use std::str::FromStr;

/// The budget of each generated output schema: `Some(bytes)`, or `None` to
/// keep every output schema whole.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SchemaBudget(pub(crate) Option<usize>);

impl Default for SchemaBudget {
    fn default() -> Self {
        Self(Some(mcp_openapi::generate::DEFAULT_OUTPUT_BUDGET))
    }
}

impl fmt::Display for SchemaBudget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(bytes) if bytes % 1024 == 0 => write!(f, "{}k", bytes / 1024),
            Some(bytes) => write!(f, "{bytes}"),
            None => f.write_str("full"),
        }
    }
}

impl FromStr for SchemaBudget {
    type Err = String;

    /// `full`, a number of bytes, or a number of KiB with a `k` suffix
    /// (`16k`, also `16K`, `16KiB`, `16KB`).
    fn from_str(raw: &str) -> Result<Self, Self::Err> {
        let text = raw.trim();
        if text.eq_ignore_ascii_case("full") {
            return Ok(Self(None));
        }
        let lower = text.to_ascii_lowercase();
        let (digits, unit) = match ["kib", "kb", "k"]
            .iter()
            .find_map(|suffix| lower.strip_suffix(suffix))
        {
            Some(digits) => (digits.trim_end(), 1024),
            None => (lower.as_str(), 1),
        };
        let number: usize = digits.parse().map_err(|_| {
            format!("`{raw}` is not a budget: write a number of bytes (`16384`), of KiB (`16k`), or `full`")
        })?;
        match number.checked_mul(unit) {
            Some(0) => Err(format!(
                "`{raw}`: no output schema fits in 0 bytes; write `full` to keep output schemas whole"
            )),
            Some(bytes) => Ok(Self(Some(bytes))),
            None => Err(format!("`{raw}` is too large; write `full` for no budget")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_are_bytes_kib_or_full() {
        let parse = |raw: &str| raw.parse::<SchemaBudget>().map(|budget| budget.0);
        assert_eq!(parse("full"), Ok(None));
        assert_eq!(parse("FULL"), Ok(None));
        assert_eq!(parse("65536"), Ok(Some(65536)));
        assert_eq!(parse("16k"), Ok(Some(16384)));
        assert_eq!(parse("64KiB"), Ok(Some(65536)));
        assert_eq!(parse("2 KB"), Ok(Some(2048)));
        assert!(parse("0").unwrap_err().contains("`full`"));
        assert!(parse("lots").unwrap_err().contains("not a budget"));
        assert!(parse("-1").is_err());
    }

    #[test]
    fn the_default_prints_as_it_parses() {
        let default = SchemaBudget::default();
        assert_eq!(default.to_string(), "4k");
        assert_eq!(default.to_string().parse::<SchemaBudget>(), Ok(default));
        assert_eq!(SchemaBudget(None).to_string(), "full");
    }
}
