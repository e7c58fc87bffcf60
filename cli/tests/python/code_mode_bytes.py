"""Bytes reaching the model: discovery mode against code mode, on six everyday tasks.

Usage: code_mode_bytes.py SERVER_BIN [GITHUB_SPEC] [--steps]

Runs `mcp-server serve --openapi GITHUB_SPEC` (default: GitHub's document from
`testdata/openapi/`, decompressed into a temporary file) over stdio against the
mock GitHub API of `code_mode.py`, twice per task:

- `--discovery`: the calls one at a time, as a model makes them: `search_tools`
  for a tool the earlier hits of the task do not already show, then `call_tool`
  per step;
- `--code-mode`: `search_tools` until the hits have shown every tool the task
  uses (one query when its top five show them all, else one per tool), then one
  `execute` running a script that makes the same upstream calls.

Both servers run with `--max-result-bytes 0` (whole results). Bytes are
those of every tool result a model would read: the JSON of its
`content` plus that of its `structuredContent` (compact, UTF-8). Round trips are
tool calls. Both modes must reach the same answer and make the same upstream
requests. Prints a Markdown table (`--steps` also lists each call on stderr).
"""

import asyncio
import gzip
import json
import os
import sys
import tempfile
from pathlib import Path

from mcp import Client, StdioServerParameters

from checks import check
from code_mode import GitHubMock, ISSUES, PULLS, USERS, RATE, crash_issue_numbers, newest_open_pulls, \
    open_issue_numbers, request_key, result_json

REPO = {"owner": "octo", "repo": "app"}


class Session:
    """One task's tool calls in one mode: the bytes and round trips they cost."""

    def __init__(self, client, label, steps):
        self.client, self.label, self.steps = client, label, steps
        self.bytes = 0
        self.round_trips = 0
        self.seen = set()

    async def call(self, name, arguments):
        result = await self.client.call_tool(name, arguments)
        size = result_json(result)
        self.bytes += size
        self.round_trips += 1
        if self.steps:
            shown = json.dumps(arguments)[:110]
            print(f"  {self.label}: {name} {shown} -> {size} bytes", file=sys.stderr)
        check(not result.is_error, f"{self.label}: {name} {arguments} failed: {result.content}")
        return result

    async def search(self, query, needed):
        """`search_tools` for `query`; its hits must show every tool of `needed`."""
        result = await self.call("search_tools", {"query": query})
        # Code mode names a hit by its identifier, its tool's name beside.
        hits = [hit.get("tool", hit["name"]) for hit in result.structured_content["tools"]]
        missing = [name for name in needed if name not in hits]
        check(not missing, f"{self.label}: search_tools {query!r} does not show {missing}: {hits}")
        self.seen.update(hits)

    async def tool(self, name, arguments, query):
        """`call_tool` of `name`, after a search for `query` unless earlier hits showed it."""
        if name not in self.seen:
            await self.search(query, [name])
        result = await self.call("call_tool", {"name": name, "arguments": arguments})
        value = result.structured_content
        check(value is not None, f"{self.label}: {name} gave no structured content")
        if set(value) == {"result"}:
            value = value["result"]
        return value


# Each task: a title, what the discovery "model" does step by step (returns the
# answer), the code-mode search query and the tools it must show, the script,
# and the expected answer.

async def label_crashes(s):
    issues = await s.tool("issues_list-for-repo", {**REPO, "state": "open", "per_page": 100}, "list issues for a repository")
    crashes = sorted(issue["number"] for issue in issues if "crash" in issue["title"].lower())
    for number in crashes:
        await s.tool("issues_add-labels", {**REPO, "issue_number": number, "body": {"labels": ["crash"]}}, "add labels to an issue")
    return crashes


async def pull_additions(s):
    pulls = await s.tool("pulls_list", {**REPO, "state": "open", "per_page": 5}, "list pull requests")
    total = 0
    for pull in pulls:
        full = await s.tool("pulls_get", {**REPO, "pull_number": pull["number"]}, "get a pull request")
        total += full["additions"]
    return total


async def open_issues(s):
    issues = await s.tool("issues_list-for-repo", {**REPO, "state": "open", "per_page": 100}, "list issues for a repository")
    return len(issues)


async def issue_author(s):
    issue = await s.tool("issues_get", {**REPO, "issue_number": 7}, "get an issue")
    user = await s.tool("users_get-by-username", {"username": issue["user"]["login"]}, "get a user")
    return {"login": user["login"], "company": user["company"]}


async def rate_left(s):
    limits = await s.tool("rate-limit_get", {}, "rate limit status")
    return limits["resources"]["core"]["remaining"]


async def bug_titles(s):
    issues = await s.tool("issues_list-for-repo", {**REPO, "labels": "bug"}, "list issues for a repository")
    return [issue["title"] for issue in issues]


TASKS = [
    {
        "task": "label every open issue whose title mentions crash",
        "discovery": label_crashes,
        "search": [("list repository issues and add labels to an issue", ["issues_list-for-repo", "issues_add-labels"])],
        "code": """
const issues = await tools.issues_list_for_repo({ owner: "octo", repo: "app", state: "open", per_page: 100 });
const crashes = issues.filter((issue) => /crash/i.test(issue.title)).map((issue) => issue.number).sort((a, b) => a - b);
for (const issue_number of crashes) {
  await tools.issues_add_labels({ owner: "octo", repo: "app", issue_number, body: { labels: ["crash"] } });
}
return crashes;
""",
        "answer": crash_issue_numbers(),
    },
    {
        "task": "total lines added in the five newest open PRs",
        "discovery": pull_additions,
        "search": [("list pull requests and get a pull request", ["pulls_list", "pulls_get"])],
        "code": """
const pulls = await tools.pulls_list({ owner: "octo", repo: "app", state: "open", per_page: 5 });
const full = await Promise.all(pulls.map((pull) => tools.pulls_get({ owner: "octo", repo: "app", pull_number: pull.number })));
return full.reduce((sum, pull) => sum + pull.additions, 0);
""",
        "answer": sum(PULLS[number][3] for number in newest_open_pulls(5)),
    },
    {
        "task": "how many open issues are there",
        "discovery": open_issues,
        "search": [("list issues for a repository", ["issues_list-for-repo"])],
        "code": """
const issues = await tools.issues_list_for_repo({ owner: "octo", repo: "app", state: "open", per_page: 100 });
return issues.length;
""",
        "answer": len(open_issue_numbers()),
    },
    {
        "task": "who opened issue number 7 and what is their company",
        "discovery": issue_author,
        "search": [("get an issue and get a user", ["issues_get", "users_get-by-username"])],
        "code": """
const issue = await tools.issues_get({ owner: "octo", repo: "app", issue_number: 7 });
const user = await tools.users_get_by_username({ username: issue.user.login });
return { login: user.login, company: user.company };
""",
        "answer": {"login": "priya-r", "company": USERS["priya-r"][3]},
    },
    {
        "task": "how many API requests do I have left",
        "discovery": rate_left,
        "search": [("rate limit status", ["rate-limit_get"])],
        "code": """
const limits = await tools.rate_limit_get({});
return limits.resources.core.remaining;
""",
        "answer": RATE["remaining"],
    },
    {
        "task": "list the titles of the issues labeled bug",
        "discovery": bug_titles,
        "search": [("list issues for a repository", ["issues_list-for-repo"])],
        "code": """
const issues = await tools.issues_list_for_repo({ owner: "octo", repo: "app", labels: "bug" });
return issues.map((issue) => issue.title);
""",
        "answer": [ISSUES[number][0] for number in open_issue_numbers("bug")],
    },
]


def upstream(requests):
    return sorted(request_key(request) for request in requests)


async def measure(server_bin, spec, steps):
    rows = []
    with GitHubMock() as mock:
        # Whole results, as a model gets them without a result bound: the
        # comparison is of where the work happens, not of cutting.
        serve = ["serve", "--openapi", spec, "--base-url", mock.url, "--transport", "stdio", "--max-result-bytes", "0"]
        env = {"RUST_LOG": os.environ.get("RUST_LOG", "warn")}
        async with Client(StdioServerParameters(command=server_bin, args=serve + ["--discovery"], env=env)) as discovery, \
                Client(StdioServerParameters(command=server_bin, args=serve + ["--code-mode"], env=env)) as code:
            for task in TASKS:
                mock.take()
                by_step = Session(discovery, f"discovery: {task['task']}", steps)
                answer = await task["discovery"](by_step)
                check(answer == task["answer"], f"{by_step.label}: answered {answer}, expected {task['answer']}")
                discovery_requests = upstream(mock.take())

                in_code = Session(code, f"code mode: {task['task']}", steps)
                for query, needed in task["search"]:
                    await in_code.search(query, needed)
                result = await in_code.call("execute", {"code": task["code"]})
                answer = result.structured_content["result"]
                check(answer == task["answer"], f"{in_code.label}: answered {answer}, expected {task['answer']}")
                code_requests = upstream(mock.take())
                check(code_requests == discovery_requests,
                      f"{task['task']}: upstream requests differ\n  discovery {discovery_requests}\n  code      {code_requests}")
                rows.append((task["task"], by_step.bytes, by_step.round_trips, in_code.bytes, in_code.round_trips))
    return rows


def table(rows):
    lines = [
        "| task | discovery bytes | discovery round trips | code mode bytes | code mode round trips | code / discovery |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for task, d_bytes, d_trips, c_bytes, c_trips in rows:
        lines.append(f"| {task} | {d_bytes:,} | {d_trips} | {c_bytes:,} | {c_trips} | {100 * c_bytes / d_bytes:.1f} % |")
    d_bytes, d_trips, c_bytes, c_trips = (sum(row[i] for row in rows) for i in range(1, 5))
    lines.append(f"| **total** | **{d_bytes:,}** | **{d_trips}** | **{c_bytes:,}** | **{c_trips}** | **{100 * c_bytes / d_bytes:.1f} %** |")
    return "\n".join(lines)


def github_spec(directory):
    source = Path(__file__).resolve().parents[3] / "testdata" / "openapi" / "github-api.github.com.json.gz"
    target = Path(directory) / "github-api.github.com.json"
    target.write_bytes(gzip.decompress(source.read_bytes()))
    return str(target)


def main():
    args = [arg for arg in sys.argv[1:] if arg != "--steps"]
    steps = "--steps" in sys.argv[1:]
    if len(args) not in (1, 2):
        sys.exit("usage: code_mode_bytes.py SERVER_BIN [GITHUB_SPEC] [--steps]")
    with tempfile.TemporaryDirectory() as directory:
        spec = args[1] if len(args) == 2 else github_spec(directory)
        rows = asyncio.run(measure(args[0], spec, steps))
    print(table(rows))


if __name__ == "__main__":
    main()
