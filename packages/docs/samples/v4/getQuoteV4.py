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


# Onramp: 0.01 BTC (1000000 sats) to wrapped BTC on BOB. Each address is encoded for its own
# chain: recipient and dstToken on BOB (EVM hex), sender and refundAddress on Bitcoin.
params = {
    "srcChain": "bitcoin",
    "dstChain": "bob",
    "srcToken": "0x0000000000000000000000000000000000000000",
    "dstToken": "0x03C7054BCB39f7b2e5B2c7AcB37583e32D70Cfa3",
    "amount": "1000000",
    "recipient": "0x71C7656EC7ab88b098defB751B7401B5f6d8976F",
    "sender": "bc1q3ftg88fp55ek66v7jg5dl4q0esy96rd92epged",
    "refundAddress": "bc1q3ftg88fp55ek66v7jg5dl4q0esy96rd92epged",
    "affiliates": "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045:25",
}
quote = call("GET", "/v4/get-quote?" + urllib.parse.urlencode(params))
print(json.dumps(quote, indent=2))
