import json
import os
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


# Every order of the address, page after page: nextCursor is reused as cursor until it is null or absent.
user = "0x71C7656EC7ab88b098defB751B7401B5f6d8976F"
params = {"limit": 50}
while True:
    page = call("GET", f"/v4/get-orders/{user}?" + urllib.parse.urlencode(params))
    for order in page["orders"]:
        print(order["id"], next(iter(order["status"])))
    if not page.get("nextCursor"):
        break
    params["cursor"] = page["nextCursor"]
