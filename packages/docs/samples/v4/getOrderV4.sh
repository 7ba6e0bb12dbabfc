# ORDER_ID is the order id from create-order, the source
# Bitcoin txid or the source EVM transaction hash.
GATEWAY_URL="${GATEWAY_URL:-http://127.0.0.1:8080}"  # the local sandbox (pnpm server) unless set
curl -sS --fail-with-body \
  ${GATEWAY_API_KEY:+-H "Authorization: Bearer $GATEWAY_API_KEY"} \
  "$GATEWAY_URL/v4/get-order/$ORDER_ID"
