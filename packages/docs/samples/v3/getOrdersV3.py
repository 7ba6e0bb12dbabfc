import json
import os
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


# V3, kept for existing integrations; /v4/get-orders/{user_address} takes the same cursor and limit.
address = "0x71C7656EC7ab88b098defB751B7401B5f6d8976F"
page = call("GET", f"/v3/get-orders/{address}?" + urllib.parse.urlencode({"limit": 20}))
print(json.dumps(page, indent=2))
