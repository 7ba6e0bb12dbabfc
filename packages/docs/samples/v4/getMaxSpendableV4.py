import json
import os
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


# How much Bitcoin this address can spend on an onramp.
address = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"
spendable = call("GET", f"/v4/get-max-spendable/{address}")
print(json.dumps(spendable, indent=2))
