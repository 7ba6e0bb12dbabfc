import json
import os
import sys
import urllib.error
import urllib.parse
import urllib.request

GATEWAY_URL = os.environ.get("GATEWAY_URL", "http://127.0.0.1:8080")  # the local sandbox (pnpm server) unless set
API_KEY = os.environ.get("GATEWAY_API_KEY")  # optional: sent as a bearer token when set


def call(method, path, body=None):
    """One request; a 4xx/5xx answer raises urllib.error.HTTPError, whose body is the error JSON."""
    request = urllib.request.Request(GATEWAY_URL + path, method=method)
    if API_KEY:
        request.add_header("Authorization", f"Bearer {API_KEY}")
    data = None
    if body is not None:
        request.add_header("Content-Type", "application/json")
        data = json.dumps(body).encode()
    with urllib.request.urlopen(request, data, timeout=30) as response:
        return json.load(response)


# With GATEWAY_API_KEY set, every call sends "Authorization: Bearer <key>" (exactly 32 characters).
try:
    print(json.dumps(call("GET", "/v4/get-routes"), indent=2))
except urllib.error.HTTPError as error:
    # 401: the key is malformed or unknown; 429: over the rate limit, retry after Retry-After seconds.
    print(error.code, error.headers.get("Retry-After"), json.load(error), file=sys.stderr)
    raise
