"""End-to-end check of code mode with the official Python SDK (mcp==2.3.0).

Usage: code_mode.py SERVER_BIN GITHUB_SPEC

Starts a mock GitHub API (stdlib `http.server` on 127.0.0.1, an ephemeral
port, fixed GitHub-shaped data: the repository octo/app with 32 issues, 27 of
them open, 7 pull requests, users, labels, the rate limit; every request is
recorded), then `mcp-server serve --openapi GITHUB_SPEC --base-url MOCK
--code-mode` over stdio and over Streamable HTTP, driven by the official
client. It checks `tools/list` (only `search_tools` and `execute`, small),
`search_tools` (TypeScript declarations), and scripts run by `execute` that
paginate, fan out with `Promise.all`, filter then write, catch a 404, chain
lookups and log; each script's answer and the upstream requests it made are
checked. Prints one line per check; exits non-zero on the first failure.

`code_mode_bytes.py` imports the mock from here.
"""

import asyncio
import json
import os
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, quote, urlsplit

from checks import check

API = "https://api.github.com"
OWNER, REPO = "octo", "app"
REPO_API = f"{API}/repos/{OWNER}/{REPO}"
REPO_HTML = f"https://github.com/{OWNER}/{REPO}"

# login: (id, type, name, company, location, bio)
USERS = {
    "octo": (9919, "Organization", "Octo", None, "San Francisco", "Apps for everyone."),
    "marisol": (583231, "User", "Marisol Vega", "@octo", "Lisbon, Portugal", "Mobile and sync. Coffee first."),
    "devon-k": (1024117, "User", "Devon Kim", "@octo", "Seoul", "Image pipelines, build systems."),
    "priya-r": (2208841, "User", "Priya Raman", "@northwind-labs", "Bengaluru, India", "QA engineer; I break things so you don't have to."),
    "tomasz": (3310456, "User", "Tomasz Nowak", None, "Kraków", "Open source on weekends."),
    "hannah-lee": (4417789, "User", "Hannah Lee", "Lumen Health", "Toronto", "Accessibility and design systems."),
    "ben-okafor": (5529012, "User", "Ben Okafor", "@octo", "Lagos", "Backend, APIs, on-call."),
}
AUTHORS = ["marisol", "devon-k", "priya-r", "tomasz", "hannah-lee", "ben-okafor"]

# name: (id, color, description, default)
LABELS = {
    "bug": (208045946, "d73a4a", "Something isn't working", True),
    "enhancement": (208045947, "a2eeef", "New feature or request", True),
    "documentation": (208045948, "0075ca", "Improvements or additions to documentation", True),
    "good first issue": (208045949, "7057ff", "Good for newcomers", True),
    "performance": (208045950, "fbca04", "Slow paths, memory and battery use", False),
    "android": (208045951, "3ddc84", "Android client", False),
    "ios": (208045952, "000000", "iOS client", False),
    "ui": (208045953, "c5def5", "Layout, styling and interaction", False),
}

# number: (title, labels, closed)
ISSUES = {
    1: ("Add dark mode to the settings screen", ["enhancement", "ui"], False),
    2: ("Login button does nothing on slow networks", ["bug"], False),
    3: ("Typo in the onboarding copy", ["documentation", "good first issue"], True),
    4: ("App crashes when opening settings on Android 14", ["bug", "android"], False),
    5: ("Document the sync protocol", ["documentation"], False),
    6: ("Support exporting notes as Markdown", ["enhancement"], False),
    7: ("Search results flicker while typing", ["ui"], False),
    8: ("Reduce APK size below 20 MB", ["performance", "android"], False),
    9: ("Crash on startup after upgrading to 2.3.0", ["bug"], False),
    10: ("Allow reordering pinned notes", ["enhancement", "ui"], False),
    11: ("Crash when uploading an empty attachment", ["bug"], True),
    12: ("Localize the app into Portuguese", ["enhancement"], False),
    13: ("Notifications arrive twice on iOS 17", ["bug", "ios"], False),
    14: ("Add a keyboard shortcut for new note", ["enhancement", "good first issue"], False),
    15: ("Image decoder crash with progressive JPEGs", ["bug"], False),
    16: ("Explain offline mode in the FAQ", ["documentation"], False),
    17: ("Scrolling stutters on long notebooks", ["performance"], False),
    18: ("Show word count in the editor footer", ["enhancement"], False),
    19: ("Old notes missing after migration", ["bug"], True),
    20: ("Support biometric unlock", ["enhancement", "ios", "android"], False),
    21: ("Tags with emoji are cut off", ["bug", "ui"], False),
    22: ("Background sync crashes when the token expires", ["android"], False),
    23: ("Add a changelog page", ["documentation", "good first issue"], False),
    24: ("Cache avatars on disk", ["performance"], False),
    25: ("Upgrade the build to Gradle 8", [], True),
    26: ("Tablet layout wastes the right half of the screen", ["ui"], False),
    27: ("Share sheet is missing on iPad", ["ios"], False),
    28: ("Attachments over 10 MB fail silently", ["bug"], False),
    29: ("Let users choose the default notebook", ["enhancement"], False),
    30: ("Remove the deprecated v1 sync endpoint", [], True),
    31: ("Add a high-contrast theme", ["enhancement", "ui"], False),
    32: ("Explain how to self-host the sync server", ["documentation"], False),
}

# number: (title, head branch, author, additions, deletions, changed files, open)
PULLS = {
    33: ("Fix settings crash on Android 14", "fix-settings-crash", "marisol", 12, 4, 2, True),
    34: ("Progressive JPEG support in the image decoder", "progressive-jpeg", "devon-k", 140, 31, 6, True),
    35: ("Retry background sync after the token refresh", "sync-token-retry", "ben-okafor", 87, 22, 4, True),
    36: ("Fix the typo in onboarding", "onboarding-typo", "tomasz", 5, 5, 1, True),
    37: ("Dark mode for the settings screen", "settings-dark-mode", "hannah-lee", 302, 48, 14, True),
    38: ("Word count in the editor footer", "word-count", "priya-r", 41, 3, 3, True),
    39: ("Gradle 8", "gradle-8", "ben-okafor", 999, 870, 23, False),
}

ISSUE_AUTHORS = {7: "priya-r"}
RATE = {"limit": 5000, "used": 1234, "remaining": 3766, "reset": 1767225600}
NOT_FOUND_DOCS = "https://docs.github.com/rest/issues/issues#get-an-issue"


def timestamp(day, hour=9):
    """A fixed time `day` days after 2025-01-01."""
    month_days = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    month = 0
    while day >= month_days[month]:
        day -= month_days[month]
        month += 1
    return f"2025-{month + 1:02d}-{day + 1:02d}T{hour:02d}:{(day * 7) % 60:02d}:{(day * 13) % 60:02d}Z"


def simple_user(login):
    uid, kind = USERS[login][0], USERS[login][1]
    url = f"{API}/users/{login}"
    return {
        "login": login,
        "id": uid,
        "node_id": f"MDQ6VXNlcj{uid}",
        "avatar_url": f"https://avatars.githubusercontent.com/u/{uid}?v=4",
        "gravatar_id": "",
        "url": url,
        "html_url": f"https://github.com/{login}",
        "followers_url": f"{url}/followers",
        "following_url": f"{url}/following{{/other_user}}",
        "gists_url": f"{url}/gists{{/gist_id}}",
        "starred_url": f"{url}/starred{{/owner}}{{/repo}}",
        "subscriptions_url": f"{url}/subscriptions",
        "organizations_url": f"{url}/orgs",
        "repos_url": f"{url}/repos",
        "events_url": f"{url}/events{{/privacy}}",
        "received_events_url": f"{url}/received_events",
        "type": kind,
        "user_view_type": "public",
        "site_admin": False,
    }


def public_user(login):
    uid, _, name, company, location, bio = USERS[login]
    user = simple_user(login)
    user.update({
        "name": name,
        "company": company,
        "blog": f"https://{login}.dev",
        "location": location,
        "email": None,
        "hireable": None,
        "bio": bio,
        "twitter_username": None,
        "public_repos": 10 + uid % 37,
        "public_gists": uid % 11,
        "followers": 40 + uid % 997,
        "following": uid % 53,
        "created_at": timestamp(uid % 300, 12).replace("2025", "2014"),
        "updated_at": timestamp(300, 8),
    })
    return user


def label(name):
    lid, color, description, default = LABELS.get(name, (900000000 + sum(map(ord, name)), "ededed", None, False))
    return {
        "id": lid,
        "node_id": f"MDU6TGFiZWw{lid}",
        "url": f"{REPO_API}/labels/{quote(name)}",
        "name": name,
        "color": color,
        "default": default,
        "description": description,
    }


def milestone():
    return {
        "url": f"{REPO_API}/milestones/3",
        "html_url": f"{REPO_HTML}/milestone/3",
        "labels_url": f"{REPO_API}/milestones/3/labels",
        "id": 11254303,
        "node_id": "MI_kwDOBj5n0M4Aq7Mf",
        "number": 3,
        "title": "v2.4",
        "description": "Stability and polish before the spring release.",
        "creator": simple_user("marisol"),
        "open_issues": 9,
        "closed_issues": 14,
        "state": "open",
        "created_at": timestamp(2),
        "updated_at": timestamp(150),
        "due_on": "2025-06-30T07:00:00Z",
        "closed_at": None,
    }


def issue_body(number, title):
    return (
        f"### What happened\n\n{title}. This shows up for several people on the team and in three "
        f"reports from the beta channel since last week; see the linked thread for screenshots.\n\n"
        f"### Steps to reproduce\n\n1. Install the latest build from the beta channel\n"
        f"2. Sign in with a fresh account and open a notebook with a few hundred notes\n"
        f"3. Follow the path described in the title\n4. Watch the log output in the developer console\n\n"
        f"### Expected behaviour\n\nThe app keeps working and nothing is lost.\n\n"
        f"### Environment\n\n- App version: 2.3.{number % 4}\n- Device: Pixel 7 / iPhone 14\n"
        f"- OS: Android 14 / iOS 17.{number % 5}\n\n"
        f"<details><summary>Log excerpt</summary>\n\n```\nI/Sync(2231): starting pass {number}\n"
        f"W/Sync(2231): retrying after 2000 ms\nE/App(2231): see issue #{number}\n```\n</details>\n"
    )


def reactions(url, seed):
    return {
        "url": f"{url}/reactions",
        "total_count": seed % 9,
        "+1": seed % 5,
        "-1": 0,
        "laugh": 0,
        "hooray": seed % 2,
        "confused": 0,
        "heart": seed % 3,
        "rocket": 0,
        "eyes": seed % 2,
    }


def issue(number):
    title, labels, closed = ISSUES[number]
    author = ISSUE_AUTHORS.get(number, AUTHORS[number % len(AUTHORS)])
    assignee = AUTHORS[(number * 5) % len(AUTHORS)] if number % 3 else None
    url = f"{REPO_API}/issues/{number}"
    return {
        "url": url,
        "repository_url": REPO_API,
        "labels_url": f"{url}/labels{{/name}}",
        "comments_url": f"{url}/comments",
        "events_url": f"{url}/events",
        "html_url": f"{REPO_HTML}/issues/{number}",
        "id": 2700000000 + number * 7919,
        "node_id": f"I_kwDOBj5n0M6g{number:04d}",
        "number": number,
        "title": title,
        "user": simple_user(author),
        "labels": [label(name) for name in labels],
        "state": "closed" if closed else "open",
        "locked": False,
        "assignee": simple_user(assignee) if assignee else None,
        "assignees": [simple_user(assignee)] if assignee else [],
        "milestone": milestone() if number % 4 == 0 else None,
        "comments": number % 7,
        "created_at": timestamp(number * 3),
        "updated_at": timestamp(number * 3 + 2, 16),
        "closed_at": timestamp(number * 3 + 5, 11) if closed else None,
        "author_association": "MEMBER" if USERS[author][3] == "@octo" else "CONTRIBUTOR",
        "type": None,
        "active_lock_reason": None,
        "sub_issues_summary": {"total": 0, "completed": 0, "percent_completed": 0},
        "issue_dependencies_summary": {"blocked_by": 0, "blocking": 0, "total_blocked_by": 0, "total_blocking": 0},
        "body": issue_body(number, title),
        "closed_by": simple_user("marisol") if closed else None,
        "reactions": reactions(url, number),
        "timeline_url": f"{url}/timeline",
        "performed_via_github_app": None,
        "state_reason": "completed" if closed else None,
    }


def repository():
    owner = simple_user(OWNER)
    url = REPO_API
    urls = {
        f"{name}_url": f"{url}/{path}"
        for name, path in [
            ("archive", "{archive_format}{/ref}"), ("assignees", "assignees{/user}"),
            ("blobs", "git/blobs{/sha}"), ("branches", "branches{/branch}"),
            ("collaborators", "collaborators{/collaborator}"), ("comments", "comments{/number}"),
            ("commits", "commits{/sha}"), ("compare", "compare/{base}...{head}"),
            ("contents", "contents/{+path}"), ("contributors", "contributors"),
            ("deployments", "deployments"), ("downloads", "downloads"), ("events", "events"),
            ("forks", "forks"), ("git_commits", "git/commits{/sha}"), ("git_refs", "git/refs{/sha}"),
            ("git_tags", "git/tags{/sha}"), ("hooks", "hooks"),
            ("issue_comment", "issues/comments{/number}"), ("issue_events", "issues/events{/number}"),
            ("issues", "issues{/number}"), ("keys", "keys{/key_id}"), ("labels", "labels{/name}"),
            ("languages", "languages"), ("merges", "merges"), ("milestones", "milestones{/number}"),
            ("notifications", "notifications{?since,all,participating}"), ("pulls", "pulls{/number}"),
            ("releases", "releases{/id}"), ("stargazers", "stargazers"), ("statuses", "statuses/{sha}"),
            ("subscribers", "subscribers"), ("subscription", "subscription"), ("tags", "tags"),
            ("teams", "teams"), ("trees", "git/trees{/sha}"),
        ]
    }
    repo = {
        "id": 104752864,
        "node_id": "MDEwOlJlcG9zaXRvcnkxMDQ3NTI4NjQ=",
        "name": REPO,
        "full_name": f"{OWNER}/{REPO}",
        "private": False,
        "owner": owner,
        "html_url": REPO_HTML,
        "description": "Notes that sync everywhere: Android, iOS and the web.",
        "fork": False,
        "url": url,
        **urls,
        "created_at": "2017-09-25T14:03:11Z",
        "updated_at": timestamp(320, 10),
        "pushed_at": timestamp(321, 18),
        "git_url": f"git://github.com/{OWNER}/{REPO}.git",
        "ssh_url": f"git@github.com:{OWNER}/{REPO}.git",
        "clone_url": f"{REPO_HTML}.git",
        "svn_url": REPO_HTML,
        "homepage": "https://app.octo.example",
        "mirror_url": None,
        "size": 48213,
        "stargazers_count": 1843,
        "watchers_count": 1843,
        "language": "Kotlin",
        "has_issues": True,
        "has_projects": True,
        "has_downloads": True,
        "has_wiki": False,
        "has_pages": False,
        "has_discussions": True,
        "forks_count": 212,
        "archived": False,
        "disabled": False,
        "open_issues_count": 33,
        "license": {
            "key": "apache-2.0",
            "name": "Apache License 2.0",
            "spdx_id": "Apache-2.0",
            "url": f"{API}/licenses/apache-2.0",
            "node_id": "MDc6TGljZW5zZTI=",
        },
        "allow_forking": True,
        "is_template": False,
        "web_commit_signoff_required": False,
        "topics": ["android", "ios", "notes", "sync"],
        "visibility": "public",
        "forks": 212,
        "open_issues": 33,
        "watchers": 1843,
        "default_branch": "main",
    }
    return repo


def pull(number, full):
    title, branch, author, additions, deletions, changed, is_open = PULLS[number]
    url = f"{REPO_API}/pulls/{number}"
    issue_url = f"{REPO_API}/issues/{number}"
    head_sha = f"{number * 2654435761 % 16**40:040x}"
    base_sha = f"{number * 40503 % 16**40:040x}"
    merged = not is_open
    links = {
        "self": {"href": url},
        "html": {"href": f"{REPO_HTML}/pull/{number}"},
        "issue": {"href": issue_url},
        "comments": {"href": f"{issue_url}/comments"},
        "review_comments": {"href": f"{url}/comments"},
        "review_comment": {"href": f"{REPO_API}/pulls/comments{{/number}}"},
        "commits": {"href": f"{url}/commits"},
        "statuses": {"href": f"{REPO_API}/statuses/{head_sha}"},
    }
    value = {
        "url": url,
        "id": 1900000000 + number * 104729,
        "node_id": f"PR_kwDOBj5n0M5{number:05d}",
        "html_url": f"{REPO_HTML}/pull/{number}",
        "diff_url": f"{REPO_HTML}/pull/{number}.diff",
        "patch_url": f"{REPO_HTML}/pull/{number}.patch",
        "issue_url": issue_url,
        "number": number,
        "state": "open" if is_open else "closed",
        "locked": False,
        "title": title,
        "user": simple_user(author),
        "body": f"{title}.\n\nCloses a long-standing report; tested on Android 14 and iOS 17.\n\n"
                f"- [x] Tests added\n- [x] Changelog entry\n- [ ] Screenshots for the UI changes\n",
        "created_at": timestamp(200 + number * 2),
        "updated_at": timestamp(201 + number * 2, 15),
        "closed_at": None if is_open else timestamp(203 + number * 2),
        "merged_at": None if is_open else timestamp(203 + number * 2),
        "merge_commit_sha": f"{number * 97 % 16**40:040x}",
        "assignee": None,
        "assignees": [],
        "requested_reviewers": [simple_user("marisol")],
        "requested_teams": [],
        "labels": [label("bug")] if "Fix" in title else [],
        "milestone": None,
        "draft": False,
        "commits_url": f"{url}/commits",
        "review_comments_url": f"{url}/comments",
        "review_comment_url": f"{REPO_API}/pulls/comments{{/number}}",
        "comments_url": f"{issue_url}/comments",
        "statuses_url": f"{REPO_API}/statuses/{head_sha}",
        "head": {"label": f"{author}:{branch}", "ref": branch, "sha": head_sha, "user": simple_user(author), "repo": repository()},
        "base": {"label": f"{OWNER}:main", "ref": "main", "sha": base_sha, "user": simple_user(OWNER), "repo": repository()},
        "_links": links,
        "author_association": "MEMBER" if USERS[author][3] == "@octo" else "CONTRIBUTOR",
        "auto_merge": None,
        "active_lock_reason": None,
    }
    if full:
        value.update({
            "merged": merged,
            "mergeable": True if is_open else None,
            "rebaseable": True if is_open else None,
            "mergeable_state": "clean" if is_open else "unknown",
            "merged_by": simple_user("marisol") if merged else None,
            "comments": number % 4,
            "review_comments": number % 6,
            "maintainer_can_modify": False,
            "commits": 1 + number % 5,
            "additions": additions,
            "deletions": deletions,
            "changed_files": changed,
        })
    return value


def rate_limit():
    def bucket(limit, used, reset):
        return {"limit": limit, "used": used, "remaining": limit - used, "reset": reset}

    core = dict(RATE)
    return {
        "resources": {
            "core": core,
            "search": bucket(30, 2, 1767222060),
            "graphql": bucket(5000, 61, 1767225600),
            "integration_manifest": bucket(5000, 0, 1767225600),
            "source_import": bucket(100, 0, 1767222060),
            "code_scanning_upload": bucket(1000, 0, 1767225600),
            "actions_runner_registration": bucket(10000, 0, 1767225600),
            "scim": bucket(15000, 0, 1767225600),
            "dependency_snapshots": bucket(100, 0, 1767222060),
            "dependency_sbom": bucket(100, 0, 1767225600),
            "code_search": bucket(10, 0, 1767222060),
            "code_scanning_autofix": bucket(10, 0, 1767222060),
        },
        "rate": core,
    }


def not_found(docs="https://docs.github.com/rest"):
    return 404, {"message": "Not Found", "documentation_url": docs, "status": "404"}


def page_of(items, query, default=30):
    per_page = max(1, min(int(query.get("per_page", default)), 100))
    page = max(1, int(query.get("page", 1)))
    return items[(page - 1) * per_page:page * per_page], page, per_page


class GitHubMock:
    """GitHub's REST API for octo/app, on 127.0.0.1 at an ephemeral port."""

    def __init__(self):
        self.requests = []
        self.lock = threading.Lock()
        mock = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def handle_one(self, method):
                parts = urlsplit(self.path)
                query = {key: values[-1] for key, values in parse_qs(parts.query, keep_blank_values=True).items()}
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                try:
                    body = json.loads(raw) if raw else None
                except ValueError:
                    body = raw.decode("utf-8", "replace")
                with mock.lock:
                    mock.requests.append({"method": method, "path": parts.path, "query": query, "body": body})
                status, value, headers = mock.route(method, parts.path, query, body)
                data = json.dumps(value, indent=None, separators=(", ", ": ")).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json; charset=utf-8")
                self.send_header("Content-Length", str(len(data)))
                self.send_header("X-RateLimit-Limit", str(RATE["limit"]))
                self.send_header("X-RateLimit-Remaining", str(RATE["remaining"]))
                for key, val in headers.items():
                    self.send_header(key, val)
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self):
                self.handle_one("GET")

            def do_POST(self):
                self.handle_one("POST")

            def do_PATCH(self):
                self.handle_one("PATCH")

            def do_PUT(self):
                self.handle_one("PUT")

            def do_DELETE(self):
                self.handle_one("DELETE")

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()

    def take(self):
        """The requests recorded since the last call."""
        with self.lock:
            taken, self.requests = self.requests, []
        return taken

    def link_header(self, path, query, page, per_page, total):
        last = max(1, -(-total // per_page))
        links = []
        for rel, number in (("prev", page - 1), ("next", page + 1), ("last", last), ("first", 1)):
            if 1 <= number <= last and (rel not in ("prev", "first") or page > 1) and (rel != "next" or page < last):
                params = "&".join(f"{key}={quote(str(val))}" for key, val in {**query, "per_page": per_page, "page": number}.items())
                links.append(f'<{API}{path}?{params}>; rel="{rel}"')
        return {"Link": ", ".join(links)} if links else {}

    def route(self, method, path, query, body):
        segments = path.strip("/").split("/")
        if method == "GET" and segments == ["rate_limit"]:
            return 200, rate_limit(), {}
        if method == "GET" and len(segments) == 2 and segments[0] == "users":
            if segments[1] in USERS:
                return 200, public_user(segments[1]), {}
            return (*not_found("https://docs.github.com/rest/users/users#get-a-user"), {})
        if len(segments) < 4 or segments[:3] != ["repos", OWNER, REPO]:
            return (*not_found(), {})
        rest = segments[3:]
        if method == "GET" and rest == ["issues"]:
            state = query.get("state", "open")
            wanted = [name for name in query.get("labels", "").split(",") if name]
            numbers = [
                number for number, (_, labels, closed) in ISSUES.items()
                if (state == "all" or (state == "closed") == closed) and all(name in labels for name in wanted)
            ]
            numbers.sort(reverse=query.get("direction", "desc") == "desc")
            items, page, per_page = page_of(numbers, query)
            return 200, [issue(number) for number in items], self.link_header(path, query, page, per_page, len(numbers))
        if len(rest) >= 2 and rest[0] == "issues" and rest[1].isdigit():
            number = int(rest[1])
            if number not in ISSUES:
                return (*not_found(NOT_FOUND_DOCS), {})
            if method == "GET" and len(rest) == 2:
                return 200, issue(number), {}
            if method == "POST" and rest[2:] == ["labels"]:
                names = body.get("labels", []) if isinstance(body, dict) else body or []
                names = [name if isinstance(name, str) else name.get("name") for name in names]
                current = list(ISSUES[number][1])
                current += [name for name in names if name not in current]
                return 200, [label(name) for name in current], {}
        if method == "GET" and rest == ["pulls"]:
            state = query.get("state", "open")
            numbers = [n for n, p in PULLS.items() if state == "all" or (state == "open") == p[6]]
            numbers.sort(reverse=query.get("direction", "desc") == "desc")
            items, page, per_page = page_of(numbers, query)
            return 200, [pull(number, full=False) for number in items], self.link_header(path, query, page, per_page, len(numbers))
        if method == "GET" and len(rest) == 2 and rest[0] == "pulls" and rest[1].isdigit():
            if int(rest[1]) in PULLS:
                return 200, pull(int(rest[1]), full=True), {}
            return (*not_found("https://docs.github.com/rest/pulls/pulls#get-a-pull-request"), {})
        return (*not_found(), {})


def open_issue_numbers(label_name=None):
    return sorted(
        (number for number, (_, labels, closed) in ISSUES.items() if not closed and (label_name is None or label_name in labels)),
        reverse=True)


def crash_issue_numbers():
    return sorted(number for number in open_issue_numbers() if "crash" in ISSUES[number][0].lower())


def newest_open_pulls(count):
    return sorted((number for number, p in PULLS.items() if p[6]), reverse=True)[:count]


def result_json(result):
    """The JSON of what a tool result puts before the model: its content and structured content."""
    content = [block.model_dump(by_alias=True, exclude_none=True, mode="json") for block in result.content]
    size = len(json.dumps(content, separators=(",", ":"), ensure_ascii=False).encode())
    if result.structured_content is not None:
        size += len(json.dumps(result.structured_content, separators=(",", ":"), ensure_ascii=False).encode())
    return size


def start_http(server_bin, args):
    """Starts `mcp-server` over Streamable HTTP on a free port; returns it and its URL."""
    process = subprocess.Popen(
        [server_bin, *args, "--transport", "http", "--bind", "127.0.0.1:0"],
        stdout=subprocess.PIPE, stderr=None, text=True)
    for line in process.stdout:
        line = line.strip()
        if line.startswith("http://") and line.endswith("/mcp"):
            return process, line
    process.kill()
    raise AssertionError("mcp-server exited without printing its URL (see its log above)")


# --- the checks ---------------------------------------------------------

def request_key(request):
    return (request["method"], request["path"], tuple(sorted(request["query"].items())), json.dumps(request["body"], sort_keys=True))


def expect_requests(label, actual, expected):
    """`actual` holds exactly `expected` (method, path, query, body), in any order."""
    want = sorted(request_key({"query": {}, "body": None, **request}) for request in expected)
    got = sorted(request_key(request) for request in actual)
    check(got == want, f"{label}: upstream requests\n  got      {got}\n  expected {want}")


async def execute(client, mock, label, code):
    """Runs `code` with `execute`; returns the structured content and the upstream requests."""
    mock.take()
    result = await client.call_tool("execute", {"code": code})
    check(not result.is_error, f"{label}: execute failed: {[getattr(b, 'text', b) for b in result.content]}")
    structured = result.structured_content
    check(isinstance(structured, dict) and set(structured) == {"result", "logs", "calls"},
          f"{label}: structured content {structured}")
    text = result.content[0].text
    check(json.loads(text) == structured["result"], f"{label}: the text {text!r} is not the result as JSON")
    return structured, mock.take()


LIST = f"/repos/{OWNER}/{REPO}/issues"


async def check_tools_list(client, label):
    page = await client.list_tools()
    names = [tool.name for tool in page.tools]
    check(names == ["search_tools", "execute"], f"{label}: tools/list names {names}")
    size = len(json.dumps(page.model_dump(by_alias=True, exclude_none=True, mode="json"), separators=(",", ":")).encode())
    check(size < 4096, f"{label}: tools/list is {size} bytes")
    print(f"ok {label}: tools/list shows {names} in {size} bytes", flush=True)


async def check_search(client, label):
    result = await client.call_tool("search_tools", {"query": "list issues for a repository"})
    check(not result.is_error, f"{label}: search_tools failed: {result}")
    tools = result.structured_content["tools"]
    check(len(tools) == 5, f"{label}: search_tools gave {len(tools)} hits")
    check(isinstance(result.structured_content.get("total"), int) and result.structured_content["total"] >= 5,
          f"{label}: total {result.structured_content.get('total')}")
    hit = next((tool for tool in tools if tool["name"] == "issues_list_for_repo"), None)
    check(hit is not None, f"{label}: no issues_list_for_repo among {[tool['name'] for tool in tools]}")
    check(hit.get("tool") == "issues_list-for-repo", f"{label}: the hit names its tool {hit}")
    declaration = hit["typescript"]
    check("issues_list_for_repo(input: {" in declaration and "owner: string" in declaration
          and "repo: string" in declaration and "per_page?: number" in declaration and "page?: number" in declaration
          and "Promise<" in declaration, f"{label}: the declaration is {declaration}")
    check(declaration in result.content[0].text, f"{label}: the text does not hold the declaration")
    size = result_json(result)
    check(size < 6 * 1024, f"{label}: a 5-result search_tools answer is {size} bytes")
    print(f"ok {label}: search_tools found issues_list_for_repo ({size} bytes for 5 hits)", flush=True)


async def check_paginate(client, mock, label):
    code = """
const all = [];
for (let page = 1; ; page++) {
  const batch = await tools.issues_list_for_repo({ owner: "octo", repo: "app", state: "open", per_page: 20, page });
  all.push(...batch);
  if (batch.length < 20) break;
}
return { count: all.length, numbers: all.map((issue) => issue.number) };
"""
    structured, requests = await execute(client, mock, label, code)
    expected = open_issue_numbers()
    check(structured["result"] == {"count": len(expected), "numbers": expected}, f"{label}: paginate gave {structured['result']}")
    check(structured["calls"] == 2, f"{label}: paginate made {structured['calls']} calls")
    expect_requests(f"{label} paginate", requests, [
        {"method": "GET", "path": LIST, "query": {"state": "open", "per_page": "20", "page": str(page)}} for page in (1, 2)
    ])
    print(f"ok {label}: paginate ({len(expected)} open issues over 2 pages)", flush=True)


async def check_fan_out(client, mock, label):
    code = """async () => {
  const pulls = await tools.pulls_list({ owner: "octo", repo: "app", state: "open", per_page: 5 });
  const full = await Promise.all(pulls.map((pull) => tools.pulls_get({ owner: "octo", repo: "app", pull_number: pull.number })));
  return { pulls: full.map((pull) => pull.number), additions: full.reduce((sum, pull) => sum + pull.additions, 0) };
}"""
    structured, requests = await execute(client, mock, label, code)
    numbers = newest_open_pulls(5)
    additions = sum(PULLS[number][3] for number in numbers)
    check(structured["result"] == {"pulls": numbers, "additions": additions}, f"{label}: fan out gave {structured['result']}")
    check(structured["calls"] == 6, f"{label}: fan out made {structured['calls']} calls")
    expect_requests(f"{label} fan out", requests, [
        {"method": "GET", "path": f"/repos/{OWNER}/{REPO}/pulls", "query": {"state": "open", "per_page": "5"}},
        *({"method": "GET", "path": f"/repos/{OWNER}/{REPO}/pulls/{number}"} for number in numbers),
    ])
    print(f"ok {label}: Promise.all over {len(numbers)} pulls ({additions} additions)", flush=True)


async def check_filter_write(client, mock, label):
    code = """
const issues = await tools.issues_list_for_repo({ owner: "octo", repo: "app", state: "open", per_page: 100 });
const crashes = issues.filter((issue) => /crash/i.test(issue.title));
const labelled = await Promise.all(crashes.map((issue) =>
  tools.issues_add_labels({ owner: "octo", repo: "app", issue_number: issue.number, body: { labels: ["crash"] } })));
return { labelled: crashes.map((issue) => issue.number).sort((a, b) => a - b), names: labelled.map((labels) => labels.map((l) => l.name)) };
"""
    structured, requests = await execute(client, mock, label, code)
    crashes = crash_issue_numbers()
    check(structured["result"]["labelled"] == crashes, f"{label}: filter then write gave {structured['result']}")
    check(all("crash" in names for names in structured["result"]["names"]), f"{label}: labels {structured['result']['names']}")
    check(structured["calls"] == 1 + len(crashes), f"{label}: filter then write made {structured['calls']} calls")
    expect_requests(f"{label} filter then write", requests, [
        {"method": "GET", "path": LIST, "query": {"state": "open", "per_page": "100"}},
        *({"method": "POST", "path": f"{LIST}/{number}/labels", "body": {"labels": ["crash"]}} for number in crashes),
    ])
    print(f"ok {label}: labelled the crash issues {crashes}", flush=True)


async def check_catch_404(client, mock, label):
    code = """
try {
  const issue = await tools.issues_get({ owner: "octo", repo: "app", issue_number: 999 });
  return { found: issue.number };
} catch (error) {
  return { caught: error instanceof Error, message: error.message };
}
"""
    structured, requests = await execute(client, mock, label, code)
    result = structured["result"]
    check(result.get("caught") is True, f"{label}: the 404 was not caught as an Error: {result}")
    message = result["message"]
    check("404" in message and "Not Found" in message and NOT_FOUND_DOCS in message,
          f"{label}: the 404's message is {message!r}")
    expect_requests(f"{label} 404", requests, [{"method": "GET", "path": f"{LIST}/999"}])
    print(f"ok {label}: caught the 404 ({message.splitlines()[0]!r})", flush=True)


async def check_chain(client, mock, label):
    code = """
const issue = await tools.issues_get({ owner: "octo", repo: "app", issue_number: 7 });
const login = issue.user.login;
const user = await callTool("users_get-by-username", { username: login });
return { login, company: user.company, name: user.name };
"""
    structured, requests = await execute(client, mock, label, code)
    _, _, name, company, _, _ = USERS["priya-r"]
    check(structured["result"] == {"login": "priya-r", "company": company, "name": name}, f"{label}: chain gave {structured['result']}")
    expect_requests(f"{label} chain", requests, [
        {"method": "GET", "path": f"{LIST}/7"},
        {"method": "GET", "path": "/users/priya-r"},
    ])
    print(f"ok {label}: issue number 7 -> priya-r -> {company}", flush=True)


async def check_log(client, mock, label):
    code = """
const limits = await tools.rate_limit_get({});
const bugs = await tools.issues_list_for_repo({ owner: "octo", repo: "app", labels: "bug" });
console.log("remaining:", limits.resources.core.remaining);
console.log("bugs", bugs.map((issue) => issue.number).join(","));
const entry = catalog.find((tool) => tool.tool === "issues_list-for-repo");
return { remaining: limits.rate.remaining, bugs: bugs.length, identifier: entry.name, method: entry.method, path: entry.path };
"""
    structured, requests = await execute(client, mock, label, code)
    bugs = open_issue_numbers("bug")
    check(structured["result"] == {
        "remaining": RATE["remaining"], "bugs": len(bugs), "identifier": "issues_list_for_repo",
        "method": "GET", "path": "/repos/{owner}/{repo}/issues",
    }, f"{label}: log gave {structured['result']}")
    logs = structured["logs"]
    check(len(logs) == 2 and logs[0] == f"remaining: {RATE['remaining']}" and logs[1] == "bugs " + ",".join(map(str, bugs)),
          f"{label}: logs {logs}")
    expect_requests(f"{label} log", requests, [
        {"method": "GET", "path": "/rate_limit"},
        {"method": "GET", "path": LIST, "query": {"labels": "bug"}},
    ])
    print(f"ok {label}: console.log captured {logs}", flush=True)


async def check_names_are_callable(client, mock, label):
    """Every name a search answer, a listing and `catalog` show is `tools.<name>`."""
    found = await client.call_tool("search_tools", {"query": "list pull request files and commits"})
    listed = await client.call_tool("search_tools", {"query": "", "tags": ["pulls"]})
    names = [tool["name"] for tool in found.structured_content["tools"]]
    names += [candidate["name"] for candidate in found.structured_content["more"]]
    names += [tool["name"] for tool in listed.structured_content["tools"]]
    check(len(names) > 20, f"{label}: only {names}")
    code = f"""
const names = {json.dumps(names)};
const uncallable = names.filter((name) => typeof tools[name] !== "function" || !(name in tools));
const unlisted = catalog.filter((entry) => !(entry.name in tools)).map((entry) => entry.name);
const renamed = catalog.filter((entry) => entry.tool !== undefined && entry.tool !== entry.name).length;
return {{ uncallable, unlisted, renamed, total: catalog.length }};
"""
    structured, _ = await execute(client, mock, label, code)
    result = structured["result"]
    check(result["uncallable"] == [] and result["unlisted"] == [], f"{label}: names not callable {result}")
    check(result["renamed"] > 100 and result["total"] > 1000, f"{label}: catalog {result}")
    print(f"ok {label}: every name shown ({len(names)}) and the catalog's {result['total']} are tools.<name>", flush=True)


async def check_failures(client, mock, label):
    mock.take()
    syntax = await client.call_tool("execute", {"code": "return {;"})
    check(syntax.is_error, f"{label}: a syntax error did not fail: {syntax}")
    thrown = await client.call_tool("execute", {"code": 'await tools.issues_get({ owner: "octo", repo: "app", issue_number: 998 });\nreturn 1;'})
    check(thrown.is_error and "404" in thrown.content[0].text, f"{label}: an uncaught 404 gave {thrown}")
    expect_requests(f"{label} failures", mock.take(), [{"method": "GET", "path": f"{LIST}/998"}])
    print(f"ok {label}: a syntax error and an uncaught throw are error results", flush=True)


async def check_direct_call(client, mock, label):
    mock.take()
    direct = await client.call_tool("rate-limit_get", {})
    check(not direct.is_error and direct.structured_content["rate"] == RATE, f"{label}: a direct call gave {direct}")
    expect_requests(f"{label} direct call", mock.take(), [{"method": "GET", "path": "/rate_limit"}])
    print(f"ok {label}: an unlisted tool stays callable directly", flush=True)


async def exercise(client, mock, label):
    await check_tools_list(client, label)
    await check_search(client, label)
    await check_paginate(client, mock, label)
    await check_fan_out(client, mock, label)
    await check_filter_write(client, mock, label)
    await check_catch_404(client, mock, label)
    await check_chain(client, mock, label)
    await check_log(client, mock, label)
    await check_names_are_callable(client, mock, label)
    await check_failures(client, mock, label)
    await check_direct_call(client, mock, label)


async def main():
    from mcp import Client, StdioServerParameters

    if len(sys.argv) != 3:
        sys.exit("usage: code_mode.py SERVER_BIN GITHUB_SPEC")
    server_bin, spec = sys.argv[1], sys.argv[2]
    with GitHubMock() as mock:
        args = ["serve", "--openapi", spec, "--base-url", mock.url, "--code-mode"]
        params = StdioServerParameters(command=server_bin, args=args + ["--transport", "stdio"],
                                       env={"RUST_LOG": os.environ.get("RUST_LOG", "warn")})
        async with Client(params) as client:
            await exercise(client, mock, "stdio")
        process, url = start_http(server_bin, args)
        try:
            async with Client(url) as client:
                await exercise(client, mock, "http")
        finally:
            process.terminate()
            process.wait(timeout=15)
    print("all checks passed")


if __name__ == "__main__":
    asyncio.run(main())
