# The id is the order id, the source Bitcoin txid
# or the source EVM transaction hash.
curl -sS --fail-with-body "$GATEWAY_URL/v4/get-order/8d3c7a0e-5f1b-4b6e-9a51-2f0c7e4d9b12"
