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


def place_order(quote):
    try:
        return call("POST", "/v4/create-order", quote)
    except urllib.error.HTTPError as error:
        # Every refusal carries { code, error, details }: decide on the code.
        body = json.load(error)
        if body["code"] == "MISSING_REFUND_ADDRESS":
            # The quote was requested without refundAddress: request a new one with it.
            raise RuntimeError("ask the user for a refund address and quote again") from error
        if body["code"] == "ORDER_EXPIRED":
            raise RuntimeError("the quote expired: quote again") from error
        if body["code"] == "INSUFFICIENT_SOLVER_BALANCE":
            raise RuntimeError("not enough liquidity right now: try a smaller amount or later") from error
        # error.code is the HTTP status; body["error"] the message, body["details"] one of the
        # detail shapes, or None.
        raise


# A quote requested without refundAddress cannot be executed.
quote = call("GET", "/v4/get-quote?" + urllib.parse.urlencode({
    "srcChain": "bitcoin",
    "dstChain": "bob",
    "srcToken": "0x0000000000000000000000000000000000000000",
    "dstToken": "0x03C7054BCB39f7b2e5B2c7AcB37583e32D70Cfa3",
    "amount": "1000000",
    "recipient": "0x71C7656EC7ab88b098defB751B7401B5f6d8976F",
}))
try:
    place_order(quote)
except RuntimeError as problem:
    print(problem)
