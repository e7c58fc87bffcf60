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
import sys

import httpx2
from mcp import Client
from mcp.client.auth import TokenStorage
from mcp.client.auth.extensions.client_credentials import ClientCredentialsOAuthProvider
from mcp.client.streamable_http import streamable_http_client

MODES = {"auto": "2026-07-28", "legacy": "2025-11-25"}


def check(condition, message):
    if not condition:
        raise AssertionError(message)


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


async def main():
    if len(sys.argv) != 3:
        sys.exit("usage: oauth.py MCP_URL ISSUER")
    url, issuer = sys.argv[1], sys.argv[2]
    for mode in MODES:
        for method in ("client_secret_basic", "client_secret_post"):
            await session(url, issuer, mode, method)
    print("all checks passed")


asyncio.run(main())
