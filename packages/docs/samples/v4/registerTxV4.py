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


# Onramp only: the order id from create-order, and the finalized, signed raw Bitcoin transaction
# that pays the order (not a PSBT, not a txid). The service validates it against the order,
# screens it and broadcasts it.
order_id = os.environ["ORDER_ID"]
signed_tx_hex = os.environ["SIGNED_TX_HEX"]
result = call("PATCH", "/v4/register-tx", {"onramp": {"order_id": order_id, "bitcoin_tx_hex": signed_tx_hex}})
# The answer carries the txid as {"onramp": {"txid": ...}}; a plain string may hold no txid
# (it may be "ok").
print(json.dumps(result, indent=2))
