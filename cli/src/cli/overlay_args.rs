//! `--overlay FILE`: overlays for the `--openapi` document given before
//! them. Clap's derive keeps values but not their order among other flags,
//! so this argument reads the positions (`ArgMatches::indices_of`) and
//! pairs each overlay with the last `--openapi` before it.
//!
//! A struct that flattens [`OverlayArgs`] declares it before its
//! `openapi` field: the derive takes each field's values out of the matches
//! in declaration order, and the positions of `--openapi` must still be
//! there when the overlays are read.

use std::path::PathBuf;

use clap::error::ErrorKind;
use clap::{Arg, ArgAction, ArgMatches, Args, Command, FromArgMatches, value_parser};

/// The id of the `--openapi` argument the overlays follow.
const OPENAPI: &str = "openapi";
/// The id of the `--overlay` argument.
const OVERLAY: &str = "overlay";

/// The overlays of each `--openapi` document, in command-line order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct OverlayArgs {
    /// `per_document[i]`: the overlays of the `i`-th `--openapi`, in order.
    per_document: Vec<Vec<PathBuf>>,
}

impl OverlayArgs {
    /// The overlays of the `index`-th `--openapi` document (from 0).
    pub(crate) fn of_document(&self, index: usize) -> &[PathBuf] {
        self.per_document.get(index).map_or(&[], Vec::as_slice)
    }
}

impl Args for OverlayArgs {
    fn augment_args(command: Command) -> Command {
        command.arg(
            Arg::new(OVERLAY)
                .long("overlay")
                .value_name("FILE")
                .action(ArgAction::Append)
                .value_parser(value_parser!(PathBuf))
                // Listed after `--openapi` (also 1: ties go by name), though
                // declared before it.
                .display_order(1)
                .help(
                    "An OpenAPI Overlay (1.0 or 1.1; JSON or YAML) applied to the `--openapi` \
                     document given before it. Repeatable: applied in order",
                ),
        )
    }

    fn augment_args_for_update(command: Command) -> Command {
        Self::augment_args(command)
    }
}

impl FromArgMatches for OverlayArgs {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let documents: Vec<usize> = matches
            .indices_of(OPENAPI)
            .map(Iterator::collect)
            .unwrap_or_default();
        let overlays = matches
            .indices_of(OVERLAY)
            .into_iter()
            .flatten()
            .zip(matches.get_many::<PathBuf>(OVERLAY).into_iter().flatten());
        let mut per_document = vec![Vec::new(); documents.len()];
        for (position, overlay) in overlays {
            let Some(document) = documents.iter().rposition(|&d| d < position) else {
                return Err(clap::Error::raw(
                    ErrorKind::ArgumentConflict,
                    format!(
                        "`--overlay {}` comes before any `--openapi`: give it after the document it applies to\n",
                        overlay.display()
                    ),
                ));
            };
            per_document[document].push(overlay.clone());
        }
        Ok(Self { per_document })
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    #[derive(Debug, Parser)]
    struct Line {
        #[command(flatten)]
        overlays: OverlayArgs,
        #[arg(long = "openapi")]
        openapi: Vec<String>,
    }

    fn parse(args: &[&str]) -> Result<Line, clap::Error> {
        Line::try_parse_from(std::iter::once("test").chain(args.iter().copied()))
    }

    #[test]
    fn overlays_follow_the_document_before_them() {
        let line = parse(&[
            "--openapi",
            "a.yaml",
            "--overlay",
            "1.yaml",
            "--overlay=2.yaml",
            "--openapi",
            "b.yaml",
            "--openapi",
            "c.yaml",
            "--overlay",
            "3.yaml",
        ])
        .unwrap();
        assert_eq!(line.openapi, ["a.yaml", "b.yaml", "c.yaml"]);
        let paths = |index| line.overlays.of_document(index).to_vec();
        assert_eq!(paths(0), [PathBuf::from("1.yaml"), PathBuf::from("2.yaml")]);
        assert!(paths(1).is_empty());
        assert_eq!(paths(2), [PathBuf::from("3.yaml")]);
        assert!(paths(3).is_empty());
    }

    #[test]
    fn an_overlay_before_any_document_is_a_usage_error() {
        let error = parse(&["--overlay", "1.yaml", "--openapi", "a.yaml"]).unwrap_err();
        assert_eq!(error.kind(), ErrorKind::ArgumentConflict);
        assert!(
            error
                .to_string()
                .contains("`--overlay 1.yaml` comes before any `--openapi`"),
            "{error}"
        );
        assert_eq!(parse(&[]).unwrap().overlays, OverlayArgs::default());
    }
}
