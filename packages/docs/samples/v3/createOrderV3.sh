# V3, kept for existing integrations. quote-v3.json holds the
# V3 quote your integration received, unchanged (a V3 offramp
# quote carries ownerAddress).
GATEWAY_URL="${GATEWAY_URL:-http://127.0.0.1:8080}"  # the local sandbox (pnpm server) unless set
curl -sS --fail-with-body -X POST "$GATEWAY_URL/v3/create-order" \
  ${GATEWAY_API_KEY:+-H "Authorization: Bearer $GATEWAY_API_KEY"} \
  -H 'Content-Type: application/json' \
  --data-binary @quote-v3.json
