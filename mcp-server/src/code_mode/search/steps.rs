//! A request that names several steps ("list the open issues and add a
//! label to each") is searched step by step: a script chains tools, so
//! each step's best tools should be among the hits, not only those of the
//! step with the most words in common with the tools.

use std::collections::HashSet;

/// The words that join two steps of a request.
const JOINERS: [&str; 4] = [" and then ", " then ", " and ", "; "];
/// The fewest words a step has; shorter pieces ("terms and conditions")
/// stay one request.
const STEP_WORDS: usize = 2;

/// The steps of `query`, in order: the request cut at its joiners where
/// every piece has at least [`STEP_WORDS`] words; the whole request when it
/// names one step.
pub(crate) fn steps(query: &str) -> Vec<&str> {
    let mut steps = vec![query];
    for joiner in JOINERS {
        let mut cut = Vec::new();
        for step in steps {
            let pieces: Vec<&str> = step.split(joiner).map(str::trim).collect();
            if pieces.len() > 1 && pieces.iter().all(|piece| words(piece) >= STEP_WORDS) {
                cut.extend(pieces);
            } else {
                cut.push(step);
            }
        }
        steps = cut;
    }
    steps
}

fn words(text: &str) -> usize {
    text.split_whitespace().count()
}

/// The hits of several steps merged: the best hit of each step, then the
/// second best of each, and so on, each tool once.
pub(crate) fn interleave(mut rankings: Vec<Vec<usize>>) -> Vec<usize> {
    if rankings.len() == 1 {
        return rankings.pop().unwrap_or_default();
    }
    let longest = rankings.iter().map(Vec::len).max().unwrap_or(0);
    let mut seen = HashSet::new();
    let mut merged = Vec::new();
    for rank in 0..longest {
        for ranking in &rankings {
            if let Some(&tool) = ranking.get(rank)
                && seen.insert(tool)
            {
                merged.push(tool);
            }
        }
    }
    merged
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_is_cut_into_its_steps() {
        assert_eq!(
            steps("list repository issues and add labels to an issue"),
            ["list repository issues", "add labels to an issue"]
        );
        assert_eq!(
            steps("get an issue, then get its author; star the repo"),
            ["get an issue,", "get its author", "star the repo"]
        );
        assert_eq!(
            steps("accept terms and conditions"),
            ["accept terms and conditions"]
        );
        assert_eq!(steps("list pets"), ["list pets"]);
    }

    #[test]
    fn steps_take_turns() {
        assert_eq!(
            interleave(vec![vec![1, 2, 3], vec![4, 2, 5]]),
            [1, 4, 2, 3, 5]
        );
        assert_eq!(interleave(vec![vec![7]]), [7]);
        assert!(interleave(Vec::new()).is_empty());
    }
}
