import time
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


# Reads the order every 5 s (longer after failed reads) until it is success, failed or refunded;
# gives up after 2 hours.
order_id = os.environ["ORDER_ID"]
deadline = time.monotonic() + 2 * 60 * 60
delay = 5
while True:
    try:
        order = call("GET", "/v4/get-order/" + urllib.parse.quote(order_id, safe=""))
        state = next(iter(order["status"]))
        print("order is", state)
        if state in ("success", "failed", "refunded"):
            break
        delay = 5
    except urllib.error.URLError as error:
        # A 4xx answer (404: no such order) ends the wait; a failed read says nothing about the order.
        if isinstance(error, urllib.error.HTTPError) and error.code < 500 and error.code != 429:
            raise
        delay = min(delay * 2, 60)
        # A 429 (and a 503) says how long to wait: at least that long.
        retry_after = error.headers.get("Retry-After") if isinstance(error, urllib.error.HTTPError) else None
        if retry_after and retry_after.isdigit():
            delay = max(delay, int(retry_after))
    if time.monotonic() > deadline:
        raise TimeoutError(f"order {order_id} was not settled in time")
    time.sleep(delay)

value = order["status"][state]
if state == "success":
    print("received", value["received_tokens"])
if state == "refunded":
    print("refunded", value["refunded_tokens"])
if state == "failed":
    print("failed", value)
