# ORDER_ID is the order id from create-order, the source
# Bitcoin txid or the source EVM transaction hash.
curl -sS --fail-with-body "$GATEWAY_URL/v4/get-order/$ORDER_ID"
