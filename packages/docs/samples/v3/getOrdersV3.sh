# V3, kept for existing integrations; /v4/get-orders/{user_address}
# takes the same cursor and limit.
GATEWAY_URL="${GATEWAY_URL:-http://127.0.0.1:8080}"  # the local sandbox (pnpm server) unless set
curl -sS --fail-with-body --get "$GATEWAY_URL/v3/get-orders/0x71C7656EC7ab88b098defB751B7401B5f6d8976F" \
  ${GATEWAY_API_KEY:+-H "Authorization: Bearer $GATEWAY_API_KEY"} \
  --data-urlencode 'limit=20'
