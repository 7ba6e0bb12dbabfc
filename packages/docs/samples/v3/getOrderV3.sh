# V3, kept for existing integrations;
# /v4/get-order/{id} answers the same order info.
GATEWAY_URL="${GATEWAY_URL:-http://127.0.0.1:8080}"  # the local sandbox (pnpm server) unless set
curl -sS --fail-with-body \
  ${GATEWAY_API_KEY:+-H "Authorization: Bearer $GATEWAY_API_KEY"} \
  "$GATEWAY_URL/v3/get-order/$ORDER_ID"
