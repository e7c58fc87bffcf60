"""The official Python SDK (mcp==2.3.0) as an OAuth client of a protected server.

Usage: oauth.py MCP_URL ISSUER

With client credentials at the authorization server ISSUER, the SDK's OAuth
support meets the server's 401, reads its Protected Resource Metadata, discovers
the authorization server, gets a token for the server's resource, then lists and
calls tools, for both protocol generations. Prints one line per check; exits
non-zero on the first failure.
"""

import asyncio
import json
import re
import sys
from urllib.parse import parse_qs, urljoin, urlparse

import httpx2
from mcp import Client
from mcp.client.auth import OAuthClientProvider, TokenStorage
from mcp.client.auth.extensions.client_credentials import ClientCredentialsOAuthProvider
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.auth import AuthorizationCodeResult, OAuthClientInformationFull, OAuthClientMetadata

from checks import check

MODES = {"auto": "2026-07-28", "legacy": "2025-11-25"}


class MemoryStorage(TokenStorage):
    def __init__(self):
        self.tokens = None
        self.client_info = None

    async def get_tokens(self):
        return self.tokens

    async def set_tokens(self, tokens):
        self.tokens = tokens

    async def get_client_info(self):
        return self.client_info

    async def set_client_info(self, client_info):
        self.client_info = client_info


async def session(url, issuer, mode, method):
    label = f"client credentials ({method})/{mode}"
    client_id = "mcp-client" if method == "client_secret_basic" else "mcp-post-client"
    storage = MemoryStorage()
    provider = ClientCredentialsOAuthProvider(
        server_url=url,
        storage=storage,
        client_id=client_id,
        client_secret=f"{client_id}-secret",
        token_endpoint_auth_method=method,
        scope="mcp:tools",
        issuer=issuer,
    )
    async with httpx2.AsyncClient(auth=provider) as http:
        async with Client(streamable_http_client(url, http_client=http), mode=mode) as client:
            check(client.protocol_version == MODES[mode],
                  f"{label}: negotiated {client.protocol_version}")
            tools = {tool.name for tool in (await client.list_tools()).tools}
            check({"whoami", "count"} <= tools, f"{label}: tools are {sorted(tools)}")
            who = await client.call_tool("whoami", {})
            check(not who.is_error, f"{label}: whoami failed: {who}")
            claims = json.loads(who.content[0].text)
            check(claims["client"] == client_id and "mcp:tools" in claims["scopes"],
                  f"{label}: whoami saw {claims}")
    check(storage.tokens is not None, f"{label}: no token was stored")
    print(f"ok {label}: {sorted(tools)}, called as {claims['client']}")


REDIRECT_URI = "http://127.0.0.1:1/callback"


class Browser:
    """Plays the user: follows the authorization request through the provider's
    login and consent pages, and keeps the code the redirect carries."""

    def __init__(self):
        self.result = None

    async def redirect(self, authorization_url):
        async with httpx2.AsyncClient(follow_redirects=False) as http:
            response = await http.get(authorization_url)
            for _ in range(12):
                location = response.headers.get("location")
                check(location, f"authorization stopped at {response.status_code}: {response.text[:300]}")
                location = urljoin(str(response.url), location)
                if location.startswith(REDIRECT_URI):
                    query = parse_qs(urlparse(location).query)
                    check("code" in query, f"no code in {location}")
                    self.result = AuthorizationCodeResult(
                        code=query["code"][0],
                        state=query.get("state", [None])[0],
                        iss=query.get("iss", [None])[0],
                    )
                    return
                page = await http.get(location)
                prompt = re.search(r'name="prompt" value="(\w+)"', page.text)
                if prompt is None:
                    response = page
                    continue
                response = await http.post(location, data={
                    "prompt": prompt.group(1), "login": "alice", "password": "any"})
            raise AssertionError("too many redirects during authorization")

    async def callback(self):
        check(self.result is not None, "no authorization code")
        return self.result


async def authorization_code(url, mode):
    label = f"authorization code with PKCE/{mode}"
    storage = MemoryStorage()
    storage.client_info = OAuthClientInformationFull(
        client_id="mcp-app",
        redirect_uris=[REDIRECT_URI],
        grant_types=["authorization_code"],
        response_types=["code"],
        token_endpoint_auth_method="none",
        scope="mcp:tools",
    )
    browser = Browser()
    provider = OAuthClientProvider(
        server_url=url,
        client_metadata=OAuthClientMetadata(
            redirect_uris=[REDIRECT_URI],
            grant_types=["authorization_code"],
            response_types=["code"],
            token_endpoint_auth_method="none",
            scope="mcp:tools",
        ),
        storage=storage,
        redirect_handler=browser.redirect,
        callback_handler=browser.callback,
    )
    async with httpx2.AsyncClient(auth=provider) as http:
        async with Client(streamable_http_client(url, http_client=http), mode=mode) as client:
            tools = {tool.name for tool in (await client.list_tools()).tools}
            who = await client.call_tool("whoami", {})
            check(not who.is_error, f"{label}: whoami failed: {who}")
            claims = json.loads(who.content[0].text)
            check(claims["sub"] == "alice" and claims["client"] == "mcp-app",
                  f"{label}: whoami saw {claims}")
    print(f"ok {label}: {sorted(tools)}, called as {claims['sub']} through {claims['client']}")


async def main():
    if len(sys.argv) != 3:
        sys.exit("usage: oauth.py MCP_URL ISSUER")
    url, issuer = sys.argv[1], sys.argv[2]
    for mode in MODES:
        for method in ("client_secret_basic", "client_secret_post"):
            await session(url, issuer, mode, method)
        await authorization_code(url, mode)
    print("all checks passed")


asyncio.run(main())
