import subprocess
import time
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


# 1. Quote: 0.01 BTC from the user's Bitcoin address to wrapped BTC on BOB. With "sender", the
#    order carries a PSBT spending the sender's coins; "refundAddress" makes the quote executable.
sender = os.environ["BITCOIN_ADDRESS"]
quote = call("GET", "/v4/get-quote?" + urllib.parse.urlencode({
    "srcChain": "bitcoin",
    "dstChain": "bob",
    "srcToken": "0x0000000000000000000000000000000000000000",
    "dstToken": "0x03C7054BCB39f7b2e5B2c7AcB37583e32D70Cfa3",
    "amount": "1000000",
    "recipient": "0x71C7656EC7ab88b098defB751B7401B5f6d8976F",
    "sender": sender,
    "refundAddress": sender,
}))

# 2. Order: the quote goes back unchanged.
order = call("POST", "/v4/create-order", quote)["onramp"]
order_id = order["order_id"]

# 3. The user's wallet signs and finalizes the PSBT. Here a command of your wallet
#    (SIGN_PSBT_COMMAND) reads the PSBT in hex and prints the signed raw transaction.
signed_tx_hex = subprocess.run(os.environ["SIGN_PSBT_COMMAND"], shell=True, input=order["psbt_hex"], capture_output=True, text=True, check=True).stdout.strip()

# 4. Register the raw transaction: the service checks it against the order and broadcasts it.
result = call("PATCH", "/v4/register-tx", {"onramp": {"order_id": order_id, "bitcoin_tx_hex": signed_tx_hex}})
# The txid is in {"onramp": {"txid": ...}}; a plain string may hold no txid (it may be "ok").
txid = result["onramp"]["txid"] if isinstance(result, dict) else "(the answer names no txid)"
print(f"order {order_id}: broadcast {txid}", file=sys.stderr)

# 5. Wait until the order is settled: success, failed or refunded (every 2 s, for at most 10 minutes).
deadline = time.monotonic() + 600
while True:
    state = next(iter(call("GET", "/v4/get-order/" + order_id)["status"]))
    if state in ("success", "failed", "refunded"):
        break
    if time.monotonic() > deadline:
        raise TimeoutError(f"order {order_id} is still {state}")
    time.sleep(2)
print(state)
